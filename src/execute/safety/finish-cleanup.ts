import type { Diagnostic } from '../../model/diagnostic.js'
import type { CleanupItem, CleanupSummary } from '../../model/result.js'
import { openWorkOfLedger } from './ledger.js'
import type { RunContext } from '../run-context.js'
import { FULL_ACCESS_ROLES } from '../../spec/token-roles.js'
import { sweepMarked } from './undo.js'

/**
 * After the scenarios: sweep the run's marker (a create whose response was lost still carries it; an
 * activity the run deleted that came back is a delete failure), then remove the ledger if nothing is
 * owed, and tell what was created, changed, restored, refused as not proven ours, and left behind.
 */
export async function finishCleanup(
  context: RunContext,
  what: { readonly wrote: boolean; readonly posted: boolean; readonly notes?: readonly string[] },
): Promise<{ summary?: CleanupSummary; problems: Diagnostic[] }> {
  const broken = (): Diagnostic[] => (context.ledger?.broken ? [ledgerProblem(context.ledger.broken, context)] : [])
  if (!what.wrote) {
    context.ledger?.close()
    return { problems: broken() }
  }
  const profile = (await context.profiles?.restore(context)) ?? { changed: 0, restored: 0, notRestored: [] }
  const before = context.ledger ? openWorkOfLedger(context.ledger) : undefined
  const deletedUrls = new Set(before?.deletedUrls ?? [])
  const known = { deleted: deletedUrls, leftBehind: new Set(before?.counts.leftBehind.map((item) => item.url) ?? []) }
  const sweep = what.posted
    ? await sweepMarked(context, FULL_ACCESS_ROLES, known)
    : { found: [], leftBehind: [], problems: [] }
  const problems: Diagnostic[] = sweep.problems.map((message) => ({ code: 'E_CLEANUP', kind: 'error', message }))
  for (const item of sweep.found) {
    if (deletedUrls.has(item.url))
      problems.push({
        code: 'E_CLEANUP',
        kind: 'error',
        message: `the end-of-run sweep found ${item.url} again: ${item.reason}`,
      })
  }
  for (const line of profile.notRestored)
    problems.push({
      code: 'E_CLEANUP',
      kind: 'error',
      message: `NOT restored: ${line}`,
      hint: 'set it back by hand: the run could not',
    })
  if (!context.ledger) return { problems: [...problems, ...leftBehindProblems(sweep.leftBehind)] }
  const open = openWorkOfLedger(context.ledger)
  const counts = open.counts
  problems.push(...leftBehindProblems(counts.leftBehind))
  for (const item of counts.notProvenOurs)
    problems.push({
      code: 'E_CLEANUP',
      kind: 'error',
      message: `not proven ours, left in place (nothing was sent to it): ${item.url}: ${item.reason}`,
      hint: 'look at it on the account: the run could not show it created it',
    })
  const owes = open.toDelete.length > 0 || open.toRestore.length > 0
  if (!owes) context.ledger.close()
  problems.push(...broken())
  const summary: CleanupSummary = {
    created: counts.created,
    deleted: counts.deleted,
    // The profile guard read every field at the end: its count is the true one, whatever the ledger holds.
    changed: profile.changed,
    restored: profile.restored,
    ...(profile.notRestored.length > 0 ? { notRestored: profile.notRestored } : {}),
    ...(what.notes && what.notes.length > 0 ? { notes: what.notes } : {}),
    swept: sweep.found.length,
    ...(sweep.found.length > 0 ? { found: sweep.found } : {}),
    ...(counts.notProvenOurs.length > 0 ? { notProvenOurs: counts.notProvenOurs } : {}),
    ...(counts.leftBehind.length > 0 ? { leftBehind: counts.leftBehind } : {}),
    ...(owes ? { openLedger: context.ledger.file } : {}),
  }
  return { summary, problems }
}

/** The ledger stopped taking lines: say what that means and how to finish. */
function ledgerProblem(reason: string, context: RunContext): Diagnostic {
  return {
    code: 'E_LEDGER',
    kind: 'error',
    message: `${reason}: the run stopped changing the account from then on, and still deleted what it had created (see "Account changes")`,
    hint: `free space, then run \`fitconform cleanup --base-url ${context.baseUrl.toString()} --output-dir <the same folder>\`: it sweeps the run's marker ${context.run.marker} in ${context.run.farYear}, whatever the ledger could not hold`,
  }
}

function leftBehindProblems(items: readonly CleanupItem[]): Diagnostic[] {
  return items.map((item) => ({
    code: 'E_CLEANUP',
    kind: 'error',
    message: `left behind: ${item.url}: ${item.reason}`,
    hint: 'run `fitconform cleanup --base-url …` to try again',
  }))
}
