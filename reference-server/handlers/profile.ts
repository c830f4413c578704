// §4 endpoint 6 and rule 8: PUT /profile with only the fields to change → 200, the whole Profile.
// GET /profile is not in §4; it is served as a convenience, since §2.1 links to it.
import type { Call } from '../call.js'
import { profileBody } from '../representations.js'
import { jsonReply, type Reply } from '../reply.js'
import { readJsonBody } from '../request-body.js'
import { parseProfileEdit } from '../validation.js'

export function readProfile(call: Call): Reply {
  const { store, behaviour } = call.server
  return jsonReply(behaviour, 'Profile', profileBody(store.user(call.grant.user).profile))
}

/** Editable: athlete_type (§2.6); other-choices also name and location. Others are ignored. */
export function editProfile(call: Call): Reply {
  const { store, behaviour } = call.server
  const changes = parseProfileEdit(readJsonBody(call, 'Profile'), behaviour.editableProfileFields)
  const profile = store.user(call.grant.user).profile
  Object.assign(profile, changes)
  return jsonReply(behaviour, 'Profile', profileBody(profile))
}
