// §4 endpoint 5 and rule 6: POST /fitnessActivities/<id> with a LiveFitnessActivityUpdate (§2.5)
// → 204. §3 names no states and §4 rule 6 does not say how finishing is signalled, so in the
// reference every activity accepts points at any time and nothing is ever "finished"; the
// other-choices mode holds an activity whose path has an end point finished (modes.ts liveUpdates).
import type { Call } from '../call.js'
import { pathClimb, pathDistance, pathDuration } from '../store/geo.js'
import { activityBody } from '../representations/representations.js'
import { emptyReply, jsonReply, textReply, type Reply } from '../http/reply.js'
import { readJsonBody } from '../http/request-body.js'
import { parseLiveUpdate } from '../representations/validation.js'
import { findOwnActivity } from './find-activity.js'
import { afterStorage, STORAGE_MS, writeOverStaleCopy } from '../faults/concurrency-faults.js'

export function updateLiveActivity(call: Call): Reply | Promise<Reply> {
  const { faults } = call.server
  if (faults.is('live-updates-lost-update'))
    return writeOverStaleCopy(call, findOwnActivity(call), STORAGE_MS, () => addPoints(call))
  if (faults.is('edit-overwrites-live-update')) return afterStorage(() => addPoints(call))
  return addPoints(call)
}

function addPoints(call: Call): Reply {
  const { faults, behaviour } = call.server
  const activity = findOwnActivity(call)
  const points = parseLiveUpdate(readJsonBody(call, 'LiveFitnessActivityUpdate'))
  if (behaviour.liveUpdates === 'until-ended' && activity.path.some((point) => point.type === 'end')) {
    return textReply(409, `Activity ${call.pathname} is finished (its path has an end point) and takes no more points.`)
  }
  if (!faults.is('live-update-points-dropped')) activity.path.push(...points)
  // Totals only grow: a seeded activity's totals were measured, not derived from its few points.
  activity.totalDistance = Math.max(activity.totalDistance, pathDistance(activity.path))
  activity.duration = Math.max(activity.duration, pathDuration(activity.path))
  activity.totalClimb = Math.max(activity.totalClimb, pathClimb(activity.path))
  if (!faults.is('live-update-keeps-last-modified')) call.server.store.touch(activity)
  if (faults.is('live-update-answers-200'))
    return jsonReply(behaviour, 'FitnessActivity', activityBody(activity, call.server))
  if (faults.is('live-update-204-with-body'))
    return { ...emptyReply(204), rawAfterEnd: Buffer.from(JSON.stringify(activityBody(activity, call.server))) }
  return emptyReply(204)
}
