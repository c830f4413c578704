import type { AuthChoice } from '../model/scenario.js'
import { mediaTypeOf } from '../spec/representations.js'
import { authorizationFor, type RunContext } from './run-context.js'

/**
 * What cleanup may touch on a real account: only an activity the run proves it created. The target
 * must name one activity (spec/paths.ts) on the base URL's origin and under its path prefix,
 * and a read of it must show this run's marker in `notes`. Anything else is left in place.
 */

export type Ownership =
  /** The read shows this run's marker: ours to delete or restore. */
  | { readonly kind: 'ours' }
  /** 404 or 410: nothing there any more. */
  | { readonly kind: 'gone'; readonly status: number }
  /** The read shows an activity without this run's marker; `notes` says whether it had notes at all. */
  | { readonly kind: 'not-ours'; readonly notes: 'missing' | 'other'; readonly reason: string }
  /** The read did not answer 200 with an activity: nothing can be proven. */
  | { readonly kind: 'unknown'; readonly reason: string }

/** Reads the activity with the role that created it and tells whether it carries the run's marker. */
export async function proveOwnership(context: RunContext, url: string, role: AuthChoice): Promise<Ownership> {
  const read = await readActivity(context, url, role)
  if (read.status === 404 || read.status === 410) return { kind: 'gone', status: read.status }
  if (read.status !== 200) return { kind: 'unknown', reason: `reading it answered ${read.status}` }
  if (typeof read.body !== 'object' || read.body === null || Array.isArray(read.body)) return { kind: 'unknown', reason: 'reading it gave no JSON activity' }
  const notes = (read.body as { notes?: unknown }).notes
  if (typeof notes === 'string' && context.run.marker !== '' && notes.includes(context.run.marker)) return { kind: 'ours' }
  if (typeof notes !== 'string' || notes === '') return { kind: 'not-ours', notes: 'missing', reason: 'the activity read there has no notes, so not the run marker' }
  return { kind: 'not-ours', notes: 'other', reason: `the activity read there does not carry the run marker ${context.run.marker} in its notes` }
}

/** GET of one activity; the status is a string when nothing answered. */
async function readActivity(context: RunContext, url: string, role: AuthChoice): Promise<{ status: number | string; body?: unknown }> {
  const headers: Record<string, string> = { accept: mediaTypeOf('FitnessActivity'), 'accept-encoding': 'identity' }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
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
