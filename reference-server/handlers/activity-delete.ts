// §4 endpoint 8: DELETE /fitnessActivities/<id> → 204, no body. The activity leaves the feed and
// the feed's change time moves (Store.remove), so a revalidating client sees the deletion.
import type { Call } from '../call.js'
import { emptyReply, type Reply } from '../reply.js'
import { findOwnActivity } from './find-activity.js'

export function deleteActivity(call: Call): Reply {
  call.server.store.remove(findOwnActivity(call))
  return emptyReply(204)
}
