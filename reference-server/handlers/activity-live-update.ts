// §4 endpoint 5 and rule 6: POST /fitnessActivities/<id> with a LiveFitnessActivityUpdate (§2.5)
// → 204. §3 names no states and §4 rule 6 does not say how finishing is signalled, so every
// activity accepts points at any time and nothing is ever "finished".
import type { Call } from '../call.js'
import { pathClimb, pathDistance, pathDuration } from '../geo.js'
import { emptyReply, type Reply } from '../reply.js'
import { readJsonBody } from '../request-body.js'
import { parseLiveUpdate } from '../validation.js'
import { findOwnActivity } from './find-activity.js'

export function updateLiveActivity(call: Call): Reply {
  const activity = findOwnActivity(call)
  const points = parseLiveUpdate(readJsonBody(call, 'LiveFitnessActivityUpdate'))
  activity.path.push(...points)
  // Totals only grow: a seeded activity's totals were measured, not derived from its few points.
  activity.totalDistance = Math.max(activity.totalDistance, pathDistance(activity.path))
  activity.duration = Math.max(activity.duration, pathDuration(activity.path))
  activity.totalClimb = Math.max(activity.totalClimb, pathClimb(activity.path))
  call.server.store.touch(activity)
  return emptyReply(204)
}
