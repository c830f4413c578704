import type { AuthChoice } from '../model/scenario.js'
import { twoDigits } from '../validation/calendar.js'
import { mediaTypeOf } from '../validation/representations.js'
import { evaluateExpression } from '../expression/evaluate-expression.js'
import type { OpenWork } from './ledger.js'
import { resolveUrl } from './resolve-url.js'
import { authorizationFor, type RunContext } from './run-context.js'

export interface UndoOutcome {
  deleted: number
  restored: number
  /** Activities found by the run's marker that the ledger did not know (a create whose response was lost). */
  swept: number
  readonly problems: string[]
}

/** Deletes and restores what a ledger still owes, then sweeps the run's marker. Used by `fitconform cleanup`. */
export async function undoOpenWork(work: OpenWork, context: RunContext): Promise<UndoOutcome> {
  const outcome: UndoOutcome = { deleted: 0, restored: 0, swept: 0, problems: [] }
  for (const { url, role } of work.toDelete) {
    const status = await send(context, 'DELETE', url, role)
    if (isGone(status)) {
      outcome.deleted++
      context.ledger?.record({ type: 'deleted', url })
    } else outcome.problems.push(`DELETE ${url} answered ${status}`)
  }
  for (const { scenario, requests } of work.toRestore) {
    let ok = true
    for (const request of requests) {
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
    const sweep = await sweepMarked(context, ['token', 'other-token'], work.run.marker, work.run.farYear)
    outcome.swept += sweep.swept
    outcome.problems.push(...sweep.problems)
  }
  return outcome
}

/**
 * Finds activities in the run's far-past year whose notes carry the run's marker and deletes them.
 * Never deletes anything else: the marker is unique to one run, so a match can only be ours.
 */
export async function sweepMarked(context: RunContext, roles: readonly AuthChoice[], marker: string, farYear: number): Promise<{ swept: number; problems: string[] }> {
  let swept = 0
  const problems: string[] = []
  for (const role of roles) {
    if (authorizationFor(role, context) === undefined) continue
    // Month by month: which page a scope returns is open (§2.2), so keep each window smaller than a page.
    for (let month = 1; month <= 12; month++) {
      const last = new Date(Date.UTC(farYear, month, 0)).getUTCDate()
      const feedUrl = resolveUrl('/fitnessActivities', context.baseUrl, { noEarlierThan: `${farYear}-${twoDigits(month)}-01`, noLaterThan: `${farYear}-${twoDigits(month)}-${twoDigits(last)}` }).url
      const feed = await get(context, feedUrl, role, 'FitnessActivityFeed')
      const items = (feed as { items?: unknown } | undefined)?.items
      if (!Array.isArray(items)) {
        problems.push(`could not read ${feedUrl} to look for activities carrying the run marker`)
        break
      }
      swept += await deleteMarked(items, context, role, marker, problems)
    }
  }
  return { swept, problems }
}

async function deleteMarked(items: readonly unknown[], context: RunContext, role: AuthChoice, marker: string, problems: string[]): Promise<number> {
  let swept = 0
  for (const item of items) {
    const id = evaluateExpression('uri | lastSegment', { uri: (item as { uri?: unknown }).uri })
    if (typeof id !== 'string' || id === '') continue
    const activityUrl = resolveUrl(`/fitnessActivities/${encodeURIComponent(id)}`, context.baseUrl).url
    const activity = await get(context, activityUrl, role, 'FitnessActivity')
    const notes = (activity as { notes?: unknown } | undefined)?.notes
    if (typeof notes !== 'string' || !notes.includes(marker)) continue
    const status = await send(context, 'DELETE', activityUrl, role)
    if (isGone(status)) {
      swept++
      context.ledger?.record({ type: 'deleted', url: activityUrl })
    } else problems.push(`DELETE ${activityUrl} (found by the run marker) answered ${status}`)
  }
  return swept
}

function isGone(status: number | string): boolean {
  return typeof status === 'number' && ((status >= 200 && status < 300) || status === 404 || status === 410)
}

async function get(context: RunContext, url: string, role: AuthChoice, representation: 'FitnessActivityFeed' | 'FitnessActivity'): Promise<unknown> {
  const headers: Record<string, string> = { accept: mediaTypeOf(representation) }
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
