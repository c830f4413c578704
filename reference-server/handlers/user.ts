// §4 endpoint 1: GET /user → 200 User (§2.1).
import type { Call } from '../call.js'
import { userBody } from '../representations/representations.js'
import { jsonReply, type Reply } from '../http/reply.js'

export function readUser(call: Call): Reply {
  const { store, behaviour, faults } = call.server
  const body = userBody(store.user(call.grant.user), behaviour)
  if (faults.is('user-id-string')) body.userID = String(body.userID)
  if (faults.is('other-user-shares-user-id') && call.grant.user === 'bob')
    body.userID = userBody(store.user('alice'), behaviour).userID
  if (faults.is('user-link-absolute'))
    body.fitness_activities = `${call.origin}${call.server.basePath}${String(body.fitness_activities)}`
  const reply = jsonReply(behaviour, 'User', body)
  if (faults.is('user-media-type-wrong')) reply.headers['Content-Type'] = 'application/json'
  // A stray comma before the closing brace: the kind of bug a hand-written serializer has.
  if (faults.is('user-body-not-json') && reply.body)
    reply.body = Buffer.from(reply.body.toString('utf8').replace(/\}$/, ',}'), 'utf8')
  return reply
}
