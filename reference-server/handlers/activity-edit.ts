// §4 endpoint 7 and rule 7: PUT /fitnessActivities/<id> with only the fields to change → 200, the
// whole updated FitnessActivity, with Last-Modified.
import type { Call } from '../call.js'
import { lastModifiedHeader } from '../conditional.js'
import { activityBody } from '../representations.js'
import { jsonReply, type Reply } from '../reply.js'
import { readJsonBody } from '../request-body.js'
import { parseActivityEdit } from '../validation.js'
import { findOwnActivity } from './find-activity.js'

/** Editable: notes (the only one §4 rule 7 names); other-choices also type, equipment, total_climb. */
export function editActivity(call: Call): Reply {
  const { store, behaviour } = call.server
  const activity = findOwnActivity(call)
  const changes = parseActivityEdit(readJsonBody(call, 'FitnessActivity'), behaviour.editableActivityFields)
  if (changes.notes !== undefined) activity.notes = changes.notes
  if (changes.type !== undefined) activity.type = changes.type
  if (changes.equipment !== undefined) activity.equipment = changes.equipment
  if (changes.total_climb !== undefined) activity.totalClimb = changes.total_climb
  // Only an applied value is a change; a body of ignored fields leaves Last-Modified alone.
  if (Object.keys(changes).length > 0) store.touch(activity)
  return jsonReply(behaviour, 'FitnessActivity', activityBody(activity, call.server), lastModifiedHeader(activity.modifiedAt))
}
