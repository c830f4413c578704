// Resolving `<activity_id>` for endpoints 3, 5, 7, 8 and 9, including what to say when the
// activity is someone else's or gone (§7 rule 6 leaves those statuses open; modes.ts chooses).
import { forbidden } from '../http/auth.js'
import type { Call } from '../call.js'
import { contentTypeOf } from '../http/media-types.js'
import type { Activity } from '../store/model.js'
import { deletedButServed } from '../faults/real-client-faults.js'
import { ReplyProblem, textReply } from '../http/reply.js'

export function findOwnActivity(call: Call): Activity {
  const { store, behaviour } = call.server
  const id = call.activityId ?? ''
  const activity = store.activity(id)
  const user = call.grant.user
  if (activity?.owner === user) return activity
  if (activity && reachesOthers(call)) return activity
  if (!activity && call.server.faults.is('missing-activity-500')) {
    throw new ReplyProblem(textReply(500, `Internal error: cannot read properties of undefined (activity ${id}).`))
  }
  const stillServed = activity ? undefined : deletedButServed(call)
  if (stillServed) return stillServed
  const owner = activity?.owner ?? store.deletedOwner(id)
  // §5 rule 2: a token reaches only its user's data. The reference hides that the id exists.
  if (owner !== undefined && owner !== user && behaviour.foreignActivity === 'forbidden') {
    throw new ReplyProblem(forbidden(call.server, 'Insufficient permission'))
  }
  if (owner === user && behaviour.deletedActivityStatus === 410) {
    throw new ReplyProblem(textReply(410, `Activity ${call.pathname} was deleted.`))
  }
  const missing = textReply(404, `There is no activity ${call.pathname}.`)
  if (call.server.faults.is('error-message-on-404'))
    missing.headers['Content-Type'] = contentTypeOf('ErrorMessage', behaviour)
  throw new ReplyProblem(missing)
}

/** The isolation mutants: one method each skips the ownership check (§5 rule 2). */
function reachesOthers(call: Call): boolean {
  const { faults } = call.server
  // The revocation mutants that let a revoked token through also skip the owner check, as a server
  // that skips the whole permission layer would: the revoked demo users own none of the activities.
  if (call.grant.revoked) {
    if (call.isHead) return faults.is('revoked-token-heads-activity')
    if (call.method === 'GET') return faults.is('revoked-delete-token-reads-activity')
    if (call.method === 'DELETE') return faults.is('revoked-token-deletes-activity')
  }
  if (call.method === 'POST') return faults.is('live-update-other-users-activity')
  if (call.method === 'GET') return faults.is('read-other-users-activity')
  if (call.method === 'PUT') return faults.is('edit-other-users-activity')
  if (call.method === 'DELETE') return faults.is('delete-other-users-activity')
  return false
}
