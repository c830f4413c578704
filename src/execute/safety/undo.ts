import type { AuthChoice, TokenRole } from '../../model/scenario.js'
import type { CleanupItem } from '../../model/result.js'
import type { OpenWork } from './ledger.js'
import {
  activityIdsOfFeed,
  daySweepReads,
  mayHoldMore,
  markerSweepReads,
  type SweepRead,
} from '../../spec/marker-sweep.js'
import { ACTIVITY_PATH_SHAPE, activityPath, activityUrlUnder } from '../../spec/paths.js'
import { RULE } from '../../spec/rule-ids.js'
import { FULL_ACCESS_ROLES } from '../../spec/token-roles.js'
import { isFarYear, isRunMarker, proveByMarker, stillThere } from './ownership.js'
import { readProfile, writeProfile } from './profile-guard.js'
import { resolveUrl } from '../http/resolve-url.js'
import { authorizationFor, type RunContext } from '../run-context.js'

export interface UndoOutcome {
  deleted: number
  restored: number
  /** Activities found by the run's marker at the end (see `found` for why each was still there). */
  swept: number
  readonly found: CleanupItem[]
  readonly notProvenOurs: CleanupItem[]
  readonly leftBehind: CleanupItem[]
  readonly problems: string[]
}

/**
 * Deletes and restores what a ledger still owes, then sweeps the run's marker. Used by `fitconform
 * cleanup`. The ledger is evidence, never authority: an activity URL must name one activity under
 * the base URL the user gave, and a read must prove it the run's own (proveByMarker) before the
 * ownership gate lets a DELETE out; a restore is rebuilt as a PUT of §2.6 profile fields to the
 * profile under the base URL, never replayed; no GET or HEAD is ever sent because a line says so.
 */
export async function undoOpenWork(work: OpenWork, context: RunContext): Promise<UndoOutcome> {
  const outcome: UndoOutcome = {
    deleted: 0,
    restored: 0,
    swept: 0,
    found: [],
    notProvenOurs: [],
    leftBehind: [],
    problems: [],
  }
  for (const { url, role } of work.toDelete) {
    const result = await deleteIfOurs(context, url, role)
    if (result.kind === 'deleted' || result.kind === 'gone') outcome.deleted++
    else if (result.kind === 'refused') outcome.notProvenOurs.push({ url, reason: result.reason })
    else if (result.kind === 'left-behind') outcome.leftBehind.push({ url, reason: result.reason })
    else if (result.kind === 'failed') outcome.problems.push(`DELETE ${url} answered ${result.status}`)
  }
  for (const { role, fields } of work.toRestore) {
    const result = await restoreProfile(context, role, fields)
    if (result) outcome.problems.push(`NOT restored: ${role}'s profile: ${result}`)
    else outcome.restored++
  }
  if (work.run) {
    const sweep = await sweepMarked(context, FULL_ACCESS_ROLES, {
      deleted: new Set(work.deletedUrls),
      leftBehind: new Set(),
    })
    outcome.swept += sweep.found.length
    outcome.found.push(...sweep.found)
    outcome.leftBehind.push(...sweep.leftBehind)
    outcome.problems.push(...sweep.problems)
  }
  return outcome
}

type DeleteResult =
  | { readonly kind: 'deleted' | 'gone' }
  | { readonly kind: 'refused' | 'left-behind'; readonly reason: string }
  | { readonly kind: 'failed'; readonly status: number | string }

/** Proves the activity is the run's own, deletes it, reads it back; writes the outcome to the ledger. */
async function deleteIfOurs(context: RunContext, url: string, role: AuthChoice): Promise<DeleteResult> {
  const target = activityUrlUnder(url, context.baseUrl)
  // Not written down as refused: the base URL may be mistyped, and the work stays owed for a later cleanup.
  if (!target) return { kind: 'refused', reason: `not ${ACTIVITY_PATH_SHAPE} under ${context.baseUrl.toString()}` }
  const ownership = await proveByMarker(context, target, role)
  if (ownership.kind === 'gone') {
    context.ledger?.record({ type: 'deleted', url })
    return { kind: 'gone' }
  }
  if (ownership.kind === 'unknown') return { kind: 'refused', reason: ownership.reason }
  if (ownership.kind === 'not-ours') return refuse(context, url, ownership.reason)
  context.ownership?.admit(target)
  const status = await send(context, 'DELETE', target, role)
  if (!isGone(status)) return { kind: 'failed', status }
  if (await stillThere(context, target, role)) {
    const reason = `DELETE answered ${status} but a read still finds it`
    context.ledger?.record({ type: 'left-behind', url, reason, role })
    return { kind: 'left-behind', reason }
  }
  context.ledger?.record({ type: 'deleted', url })
  return { kind: 'deleted' }
}

/** Written down: a read showed another activity there, so nothing of the run's is owed at that URL. */
function refuse(context: RunContext, url: string, reason: string): DeleteResult {
  context.ledger?.record({ type: 'refused', url, reason })
  return { kind: 'refused', reason }
}

/** Sets the fields back and reads them again; why they are not back, or undefined when they are. */
async function restoreProfile(
  context: RunContext,
  role: TokenRole,
  fields: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  if (authorizationFor(role, context) === undefined) return `no token for ${role} was given`
  const now = await readProfile(context, role)
  if (typeof now === 'string') return now
  const differing = Object.keys(fields).filter((field) => JSON.stringify(now[field]) !== JSON.stringify(fields[field]))
  const after =
    differing.length === 0
      ? now
      : await writeProfile(context, role, Object.fromEntries(differing.map((field) => [field, fields[field]])))
  if (typeof after === 'string') return after
  const notBack = Object.keys(fields).filter((field) => JSON.stringify(after[field]) !== JSON.stringify(fields[field]))
  for (const field of Object.keys(fields))
    if (!notBack.includes(field)) context.ledger?.record({ type: 'profile-restored', role, field })
  return notBack.length === 0
    ? undefined
    : notBack
        .map((field) => `${field} is ${JSON.stringify(after[field])}, it was ${JSON.stringify(fields[field])}`)
        .join('; ')
}

interface SweepOutcome {
  readonly found: CleanupItem[]
  readonly leftBehind: CleanupItem[]
  readonly problems: string[]
}

/**
 * Finds activities in the run's far-past year whose notes carry the run's marker and deletes them,
 * telling why each was still there. Never deletes anything else: the marker is unique to one run.
 * `known.deleted`: what the run deleted (finding one again is a failure of the delete rules);
 * `known.leftBehind`: what is already reported left behind (not reported twice).
 */
export async function sweepMarked(
  context: RunContext,
  roles: readonly AuthChoice[],
  known: { readonly deleted: ReadonlySet<string>; readonly leftBehind: ReadonlySet<string> },
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { found: [], leftBehind: [], problems: [] }
  if (!isRunMarker(context.run.marker) || !isFarYear(context.run.farYear)) return outcome
  const canonical = (urls: ReadonlySet<string>): Set<string> =>
    new Set([...urls].map((url) => activityUrlUnder(url, context.baseUrl) ?? url))
  const deleted = canonical(known.deleted)
  // Each activity once, whatever a server that ignores the date scope repeats month after month.
  const seen = canonical(known.leftBehind)
  for (const role of roles) {
    if (authorizationFor(role, context) === undefined) continue
    for (const month of markerSweepReads(context.run.farYear)) {
      const monthFeed = await sweepRead(month, context, role, outcome)
      const reads = mayHoldMore(monthFeed) ? daySweepReads(month) : []
      if (monthFeed !== undefined)
        await deleteMarked(activityIdsOfFeed(monthFeed)!, context, role, { deleted, seen }, outcome)
      for (const day of reads) {
        const dayFeed = await sweepRead(day, context, role, outcome)
        if (dayFeed !== undefined)
          await deleteMarked(activityIdsOfFeed(dayFeed)!, context, role, { deleted, seen }, outcome)
      }
    }
  }
  return outcome
}

/** One scoped read of the sweep; a window that cannot be read costs that window only, and is named. */
async function sweepRead(
  read: SweepRead,
  context: RunContext,
  role: AuthChoice,
  outcome: SweepOutcome,
): Promise<unknown> {
  const feedUrl = resolveUrl(read.path, context.baseUrl, read.query).url
  const feed = await getFeed(context, feedUrl, read.accept, role)
  if (activityIdsOfFeed(feed) !== undefined) return feed
  outcome.problems.push(`could not read ${feedUrl} to look for activities carrying the run marker`)
  return undefined
}

async function deleteMarked(
  ids: readonly string[],
  context: RunContext,
  role: AuthChoice,
  urls: { deleted: ReadonlySet<string>; seen: Set<string> },
  outcome: SweepOutcome,
): Promise<void> {
  for (const id of ids) {
    const activityUrl = resolveUrl(activityPath(id), context.baseUrl).url
    if (urls.seen.has(activityUrl)) continue
    urls.seen.add(activityUrl)
    const ownership = await proveByMarker(context, activityUrl, role)
    if (ownership.kind !== 'ours') continue
    context.ownership?.admit(activityUrl)
    const why = urls.deleted.has(activityUrl)
      ? `the run had deleted it and it came back (${RULE.deleteStatus} / ${RULE.deleteRemoves}: the delete did not remove it)`
      : 'a create whose response was lost: no Location told the run about it'
    outcome.found.push({ url: activityUrl, reason: why })
    const status = await send(context, 'DELETE', activityUrl, role)
    if (!isGone(status)) outcome.problems.push(`DELETE ${activityUrl} (found by the run marker) answered ${status}`)
    else if (await stillThere(context, activityUrl, role)) {
      const reason = `found by the run marker; DELETE answered ${status} but a read still finds it`
      context.ledger?.record({ type: 'left-behind', url: activityUrl, reason, role })
      outcome.leftBehind.push({ url: activityUrl, reason })
    } else context.ledger?.record({ type: 'deleted', url: activityUrl })
  }
}

function isGone(status: number | string): boolean {
  return typeof status === 'number' && ((status >= 200 && status < 300) || status === 404 || status === 410)
}

async function getFeed(context: RunContext, url: string, accept: string, role: AuthChoice): Promise<unknown> {
  const headers: Record<string, string> = { accept }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    const response = await context.client.send({ method: 'GET', url, headers, wire: false })
    return response.status === 200 ? (JSON.parse(response.body.toString('utf8')) as unknown) : undefined
  } catch {
    return undefined
  }
}

async function send(
  context: RunContext,
  method: string,
  url: string,
  role: AuthChoice,
  extraHeaders: Record<string, string> = {},
  body?: string,
): Promise<number | string> {
  const headers: Record<string, string> = { ...extraHeaders }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    return (await context.client.send({ method, url, headers, body, wire: false })).status
  } catch (error) {
    return `no answer (${(error as Error).message})`
  }
}
