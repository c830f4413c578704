import type { AuthChoice } from '../../model/scenario.js'
import { ACTIVITY_PATH_SHAPE, activityUrlUnder } from '../../spec/paths.js'
import { RULE } from '../../spec/rule-ids.js'
import { mediaTypeOf } from '../../spec/representations.js'
import { authorizationFor, type RunContext } from '../run-context.js'
import { isRecord } from '../../shared/is-record.js'

/**
 * How an activity is proven the run's own, so that the ownership gate (ownership-gate.ts) admits
 * writes to it. Two proofs, both a read made before any write of the run to the activity:
 *
 * - at creation (proveCreated): the read of the Location shows this run's marker in `notes` and the
 *   year of the start time the create sent (the suite's creates date everything in the run's far
 *   year); the runner makes it right after the create.
 * - by the marker alone (proveByMarker), for what the run cannot have seen created (a create whose
 *   response was lost, found by the end-of-run sweep; `fitconform cleanup` after a kill): the read
 *   shows a marker of the run-marker shape and a start time in the run's far year, whose days were
 *   read empty before the run wrote anything.
 *
 * Neither can be fooled by the run's own edits: an edit is only ever sent to an admitted activity.
 */

/** `fitconform-run-` and the 8 hex digits of a run id (run-values.ts): nothing shorter is a marker. */
const RUN_MARKER_SHAPE = /^fitconform-run-[0-9a-f]{8}$/
/** The years a run's far year is chosen from (run-values.ts, far-year.ts). */
export const FAR_YEARS = { first: 1970, last: 1999 } as const

export function isRunMarker(marker: unknown): marker is string {
  return typeof marker === 'string' && RUN_MARKER_SHAPE.test(marker)
}

export function isFarYear(year: unknown): year is number {
  return typeof year === 'number' && Number.isInteger(year) && year >= FAR_YEARS.first && year <= FAR_YEARS.last
}

export type CreationProof =
  /** The read shows the run's marker and the create's start time: the gate admits it. */
  | { readonly kind: 'proven'; readonly url: string }
  /** The read shows something else; `rule` is the rule it disproves (none when the create did not send the marker). */
  | { readonly kind: 'disproven'; readonly rule?: string; readonly reason: string }
  /** The read did not answer 200 with an activity: nothing is proven, nothing is blamed here (the scenario's own reads judge it). */
  | { readonly kind: 'unknown'; readonly reason: string }

/** What the create sent, as far as the proof compares it. */
export interface SentCreate {
  readonly markerSent: boolean
  readonly startTime?: string
}

/** The read the runner inserts right after a create, before anything of the run writes to the Location. */
export async function proveCreated(
  context: RunContext,
  location: string,
  role: AuthChoice,
  sent: SentCreate,
): Promise<CreationProof> {
  const target = activityUrlUnder(location, context.baseUrl)
  if (!target)
    return {
      kind: 'disproven',
      rule: RULE.createLocation,
      reason: `the Location is not ${ACTIVITY_PATH_SHAPE} (one non-empty id) under ${context.baseUrl.toString()}`,
    }
  if (context.ownership?.isAdmitted(target))
    return {
      kind: 'disproven',
      rule: RULE.createLocation,
      reason: 'an earlier create of this run was given the same Location',
    }
  const read = await readActivity(context, target, role)
  if (read.status !== 200) return { kind: 'unknown', reason: `reading the Location answered ${read.status}` }
  if (!isRecord(read.body)) return { kind: 'unknown', reason: 'reading the Location gave no JSON activity' }
  const notes = read.body['notes']
  const marker = context.run.marker
  if (!sent.markerSent)
    return {
      kind: 'disproven',
      reason: "the create did not send the run marker, so no read can prove the activity the run's own",
    }
  const start = startTimeOf(read.body)
  const sentYear = sent.startTime === undefined ? undefined : /\b\d{4}\b/.exec(sent.startTime)?.[0]
  const otherYear = sentYear !== undefined && start !== undefined && !start.includes(sentYear)
  const hasMarker = typeof notes === 'string' && notes.includes(marker)
  // Without the marker, a start in another year shows another activity; with it, this one recorded the start wrong.
  if (!hasMarker && otherYear)
    return {
      kind: 'disproven',
      rule: RULE.createLocation,
      reason: `the activity read there starts ${JSON.stringify(start)} and does not carry the run marker: it is another activity`,
    }
  if (typeof notes !== 'string' || notes === '')
    return {
      kind: 'disproven',
      rule: RULE.createRecords,
      reason: 'the activity read there has no notes, so not the run marker the create sent',
    }
  if (!hasMarker)
    return {
      kind: 'disproven',
      rule: RULE.createLocation,
      reason: `the activity read there does not carry the run marker ${marker} in its notes: it is another activity`,
    }
  if (otherYear)
    return {
      kind: 'disproven',
      rule: RULE.createRecords,
      reason: `the activity read there starts ${JSON.stringify(start)}, not in ${sentYear} as the create sent`,
    }
  return { kind: 'proven', url: target }
}

export type MarkerProof =
  | { readonly kind: 'ours' }
  | { readonly kind: 'gone'; readonly status: number }
  | { readonly kind: 'not-ours' | 'unknown'; readonly reason: string }

/** For what the run did not see created: the read shows a run-shaped marker and a start time in the run's far year. */
export async function proveByMarker(context: RunContext, url: string, role: AuthChoice): Promise<MarkerProof> {
  const { marker, farYear } = context.run
  if (!isRunMarker(marker) || !isFarYear(farYear))
    return { kind: 'not-ours', reason: 'the run has no valid marker and far year, so nothing can be proven its own' }
  const read = await readActivity(context, url, role)
  if (read.status === 404 || read.status === 410) return { kind: 'gone', status: read.status }
  if (read.status !== 200) return { kind: 'unknown', reason: `reading it answered ${read.status}` }
  if (!isRecord(read.body)) return { kind: 'unknown', reason: 'reading it gave no JSON activity' }
  const notes = read.body['notes']
  if (typeof notes !== 'string' || !notes.includes(marker))
    return { kind: 'not-ours', reason: `the activity read there does not carry the run marker ${marker} in its notes` }
  const start = startTimeOf(read.body)
  if (start === undefined || !start.includes(String(farYear)))
    return { kind: 'not-ours', reason: `the activity read there does not start in the run's far year ${farYear}` }
  return { kind: 'ours' }
}

/** §2.2 lets an item spell it `startTime`; an activity read is held to the same tolerance. */
function startTimeOf(activity: Record<string, unknown>): string | undefined {
  const value = activity['start_time'] ?? activity['startTime']
  return typeof value === 'string' ? value : undefined
}

/** GET of one activity; the status is a string when nothing answered. */
export async function readActivity(
  context: RunContext,
  url: string,
  role: AuthChoice,
): Promise<{ status: number | string; body?: unknown }> {
  const headers: Record<string, string> = { accept: mediaTypeOf('FitnessActivity'), 'accept-encoding': 'identity' }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    // A busy server (429/503) is waited for by the client (busy-retry.ts), as for any step: it proves nothing either way.
    const response = await context.client.send({ method: 'GET', url, headers, wire: false })
    if (response.status !== 200) return { status: response.status }
    try {
      return { status: 200, body: JSON.parse(response.body.toString('utf8')) as unknown }
    } catch {
      return { status: 200 }
    }
  } catch (error) {
    return { status: `no answer (${(error as Error).message})` }
  }
}

/** After a DELETE the server accepted: true when a read still finds the activity (left behind). */
export async function stillThere(context: RunContext, url: string, role: AuthChoice): Promise<boolean> {
  return (await readActivity(context, url, role)).status === 200
}
