// §4 endpoint 1: GET /user → 200 User (§2.1).
import type { Call } from '../call.js'
import { userBody } from '../representations.js'
import { jsonReply, type Reply } from '../reply.js'

export function readUser(call: Call): Reply {
  const { store, behaviour } = call.server
  return jsonReply(behaviour, 'User', userBody(store.user(call.grant.user), behaviour))
}
