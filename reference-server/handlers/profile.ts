// §4 endpoint 6 and rule 8: PUT /profile with only the fields to change → 200, the whole Profile.
// GET /profile is not in §4; it is served as a convenience, since §2.1 links to it.
import type { Call } from '../call.js'
import { contentTypeOf } from '../http/media-types.js'
import type { Profile } from '../store/model.js'
import { profileBody } from '../representations/representations.js'
import { jsonReply, type Reply } from '../http/reply.js'
import { readJsonBody } from '../http/request-body.js'
import { parseProfileEdit } from '../representations/validation.js'

export function readProfile(call: Call): Reply {
  return profileReply(call, call.server.store.user(call.grant.user).profile)
}

/** Editable: athlete_type (§2.6); other-choices also name and location. Others are ignored. */
export function editProfile(call: Call): Reply {
  const { store, behaviour, faults } = call.server
  const changes = parseProfileEdit(readJsonBody(call, 'Profile'), behaviour.editableProfileFields)
  const profile = store.user(call.grant.user).profile
  if (!faults.is('profile-edit-ignored')) Object.assign(profile, changes)
  if (faults.is('profile-edit-partial-response')) return jsonReply(behaviour, 'Profile', { ...changes })
  const withoutPictures = faults.is('profile-empty-edit-partial') && Object.keys(changes).length === 0
  return profileReply(call, profile, withoutPictures)
}

function profileReply(call: Call, profile: Profile, withoutPictures = false): Reply {
  const { behaviour, faults } = call.server
  const body = profileBody(profile)
  if (withoutPictures) for (const size of ['small', 'normal', 'medium', 'large']) delete body[`${size}_picture`]
  if (faults.is('elite-string')) body.elite = String(profile.elite)
  const reply = jsonReply(behaviour, 'Profile', body)
  if (faults.is('profile-media-type-wrong')) reply.headers['Content-Type'] = contentTypeOf('User', behaviour)
  return reply
}
