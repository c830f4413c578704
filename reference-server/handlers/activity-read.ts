// §4 endpoint 3: GET /fitnessActivities/<id> → 200 FitnessActivity with Last-Modified (§2.3), or
// 304 (§4 rule 3). HEAD (§4 endpoint 9) is this handler with the body taken off (dispatch.ts).
import type { Call } from '../call.js'
import { isNotModified, lastModifiedHeader, notModifiedReply } from '../conditional.js'
import { activityBody } from '../representations.js'
import { jsonReply, type Reply } from '../reply.js'
import { findOwnActivity } from './find-activity.js'

export function readActivity(call: Call): Reply {
  const activity = findOwnActivity(call)
  if (isNotModified(call.headers['if-modified-since'], activity.modifiedAt)) return notModifiedReply(activity.modifiedAt)
  return jsonReply(call.server.behaviour, 'FitnessActivity', activityBody(activity, call.server), lastModifiedHeader(activity.modifiedAt))
}
