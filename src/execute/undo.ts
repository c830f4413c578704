import type { AuthChoice } from '../model/scenario.js'
import type { CleanupItem } from '../model/result.js'
import type { OpenWork, RestoreRequest } from './ledger.js'
import { activityIdsOfFeed, markerSweepReads } from '../spec/marker-sweep.js'
import { ACTIVITY_PATH_SHAPE, PROFILE_PATH, activityPath, activityUrlUnder, isProfileUrlUnder } from '../spec/paths.js'
import { RULE } from '../spec/rule-ids.js'
import { FULL_ACCESS_ROLES } from '../spec/token-roles.js'
import { proveOwnership, stillThere } from './ownership.js'
import { resolveUrl } from './resolve-url.js'
import { authorizationFor, type RunContext } from './run-context.js'

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
 * cleanup`. Trusts no URL of the ledger: each must name an activity (or the profile) under the base
 * URL the user gave, and an activity must show the run's marker before anything is sent to it.
 */
export async function undoOpenWork(work: OpenWork, context: RunContext): Promise<UndoOutcome> {
  const outcome: UndoOutcome = { deleted: 0, restored: 0, swept: 0, found: [], notProvenOurs: [], leftBehind: [], problems: [] }
  for (const { url, role } of work.toDelete) {
    const result = await deleteIfOurs(context, url, role)
    if (result.kind === 'deleted' || result.kind === 'gone') outcome.deleted++
    else if (result.kind === 'refused') outcome.notProvenOurs.push({ url, reason: result.reason })
    else if (result.kind === 'left-behind') outcome.leftBehind.push({ url, reason: result.reason })
    else if (result.kind === 'failed') outcome.problems.push(`DELETE ${url} answered ${result.status}`)
  }
  for (const { scenario, requests } of work.toRestore) {
    let ok = true
    for (const request of requests) {
      const refusal = await refuseRestore(context, request)
      if (refusal) {
        ok = false
        outcome.notProvenOurs.push({ url: request.url, reason: refusal })
        continue
      }
      const status = await send(context, request.method, request.url, request.role, request.headers, request.body)
      if (typeof status !== 'number' || status >= 300) {
        ok = false
        outcome.problems.push(`restoring ${scenario}: ${request.method} ${request.url} answered ${status}`)
      }
    }
    if (ok) {
      outcome.restored++
      context.ledger?.record({ type: 'restored', scenario })
    }
  }
  if (work.run) {
    const sweep = await sweepMarked(context, FULL_ACCESS_ROLES, { deleted: new Set(work.deletedUrls), leftBehind: new Set() })
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
  const ownership = await proveOwnership(context, target, role)
  if (ownership.kind === 'gone') {
    context.ledger?.record({ type: 'deleted', url })
    return { kind: 'gone' }
  }
  if (ownership.kind === 'unknown') return { kind: 'refused', reason: ownership.reason }
  if (ownership.kind === 'not-ours') return refuse(context, url, ownership.reason)
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

/**
 * Why a restore request must not be sent, or undefined when it may: a restore writes only the profile
 * or an activity the run proves its own, never a collection or anything outside the base URL.
 */
async function refuseRestore(context: RunContext, request: Pick<RestoreRequest, 'method' | 'url' | 'role'>): Promise<string | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined
  if (isProfileUrlUnder(request.url, context.baseUrl)) return undefined
  const activity = activityUrlUnder(request.url, context.baseUrl)
  if (!activity) return `${request.method} to a URL that is neither ${PROFILE_PATH} nor ${ACTIVITY_PATH_SHAPE} under ${context.baseUrl.toString()}`
  const ownership = await proveOwnership(context, activity, request.role)
  return ownership.kind === 'ours' ? undefined : ownership.kind === 'gone' ? `already gone (${ownership.status})` : ownership.reason
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
export async function sweepMarked(context: RunContext, roles: readonly AuthChoice[], known: { readonly deleted: ReadonlySet<string>; readonly leftBehind: ReadonlySet<string> }): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { found: [], leftBehind: [], problems: [] }
  if (context.run.marker === '') return outcome
  const canonical = (urls: ReadonlySet<string>): Set<string> => new Set([...urls].map((url) => activityUrlUnder(url, context.baseUrl) ?? url))
  const deleted = canonical(known.deleted)
  // Each activity once, whatever a server that ignores the date scope repeats month after month.
  const seen = canonical(known.leftBehind)
  for (const role of roles) {
    if (authorizationFor(role, context) === undefined) continue
    for (const read of markerSweepReads(context.run.farYear)) {
      const feedUrl = resolveUrl(read.path, context.baseUrl, read.query).url
      const ids = activityIdsOfFeed(await getFeed(context, feedUrl, read.accept, role))
      // One month that cannot be read costs that month only: the later ones may hold marked activities.
      if (!ids) {
        outcome.problems.push(`could not read ${feedUrl} to look for activities carrying the run marker`)
        continue
      }
      await deleteMarked(ids, context, role, { deleted, seen }, outcome)
    }
  }
  return outcome
}

async function deleteMarked(ids: readonly string[], context: RunContext, role: AuthChoice, urls: { deleted: ReadonlySet<string>; seen: Set<string> }, outcome: SweepOutcome): Promise<void> {
  for (const id of ids) {
    const activityUrl = resolveUrl(activityPath(id), context.baseUrl).url
    if (urls.seen.has(activityUrl)) continue
    urls.seen.add(activityUrl)
    const ownership = await proveOwnership(context, activityUrl, role)
    if (ownership.kind !== 'ours') continue
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

async function send(context: RunContext, method: string, url: string, role: AuthChoice, extraHeaders: Record<string, string> = {}, body?: string): Promise<number | string> {
  const headers: Record<string, string> = { ...extraHeaders }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    return (await context.client.send({ method, url, headers, ...(body !== undefined ? { body } : {}), wire: false })).status
  } catch (error) {
    return `no answer (${(error as Error).message})`
  }
}
