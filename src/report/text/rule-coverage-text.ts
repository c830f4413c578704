import type { RuleStatus, RuleVerdict } from '../../model/reported-result.js'

/** A rule counts as covered when a check of this run judged it; the other statuses say why it was not. */
const COVERED: readonly RuleStatus[] = ['passed', 'failed', 'expected-failure', 'warning']
const ORDER: readonly RuleStatus[] = [
  'passed',
  'failed',
  'expected-failure',
  'warning',
  'error',
  'blocked',
  'skipped',
  'not-covered',
]
const LABELS: Readonly<Record<RuleStatus, string>> = {
  passed: 'passed',
  failed: 'failed',
  'expected-failure': 'failed as expected',
  warning: 'with warnings',
  error: 'not judged (step error)',
  blocked: 'blocked',
  skipped: 'skipped',
  'not-covered': 'not covered',
}

/**
 * The run's rule verdicts in one line, the same in every output (console, Markdown, JUnit, HTML):
 * `Rule coverage: 70 of 72 rules covered (69 passed, 1 failed); 2 not covered`.
 */
export function formatRuleCoverage(verdicts: readonly RuleVerdict[]): string {
  const count = (status: RuleStatus): number => verdicts.filter((verdict) => verdict.status === status).length
  const covered = verdicts.filter((verdict) => COVERED.includes(verdict.status)).length
  const judged = ORDER.filter((status) => COVERED.includes(status) && count(status) > 0).map(
    (status) => `${count(status)} ${LABELS[status]}`,
  )
  const unjudged = ORDER.filter((status) => !COVERED.includes(status) && count(status) > 0).map(
    (status) => `${count(status)} ${LABELS[status]}`,
  )
  return `Rule coverage: ${covered} of ${verdicts.length} rules covered${judged.length > 0 ? ` (${judged.join(', ')})` : ''}${unjudged.length > 0 ? `; ${unjudged.join(', ')}` : ''}`
}
