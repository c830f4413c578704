// §4 endpoint 8: DELETE /fitnessActivities/<id> → 204, no body. The activity leaves the feed and
// the feed's change time moves (Store.remove), so a revalidating client sees the deletion.
import type { Call } from '../call.js'
import { activityBody } from '../representations/representations.js'
import { emptyReply, jsonReply, type Reply } from '../http/reply.js'
import { repeatedDeleteRestores } from '../faults/real-client-faults.js'
import { findOwnActivity } from './find-activity.js'

export function deleteActivity(call: Call): Reply {
  const { store, faults, behaviour } = call.server
  if (repeatedDeleteRestores(call)) return emptyReply(204)
  const activity = findOwnActivity(call)
  const body = activityBody(activity, call.server)
  if (!faults.is('delete-keeps-activity')) store.remove(activity, faults.is('delete-leaves-feed-item'))
  if (faults.is('delete-answers-200')) return jsonReply(behaviour, 'FitnessActivity', body)
  if (faults.is('delete-204-with-body')) return { ...emptyReply(204), rawAfterEnd: Buffer.from('Deleted.\n') }
  return emptyReply(204)
}
