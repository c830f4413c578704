import type { KnownFailureNote, KnownFailureReport } from '../../model/reported-result.js'

/** `pageSize is ignored (https://tracker/12)`: the reason a scenario is listed as a known failure. */
export function describeKnownFailure(known: KnownFailureNote | undefined): string {
  if (!known) return 'no reason given'
  return known.link ? `${known.reason} (${known.link})` : known.reason
}

/** `<RULE> now passes: remove this entry from the known-failures file (<reason>)`: a stale rule entry, once. */
export function describeStaleRuleEntry(report: KnownFailureReport): string {
  return `${report.rule} now passes: remove this entry from the known-failures file (${describeKnownFailure(report)})`
}
