// §7 rule 5: error codes other than 403 carry human-readable messages, and "machine-readable bodies
// for them may be added later". A server that already sends an RFC 9457 problem document (whose
// `type` and `title` are generic names an activity carries too) still conforms: the mode that takes
// this branch proves the suite never reads such a body as data.
import type { ModeBehaviour } from '../modes.js'
import { textPlain } from './media-types.js'
import type { Reply } from './reply.js'

const PROBLEM_JSON = 'application/problem+json'

/** The reply as the mode writes its errors: a text message stays text, or becomes a problem document. */
export function withErrorBody(reply: Reply, behaviour: ModeBehaviour): Reply {
  if (behaviour.errorBodies !== 'problem-json' || reply.status < 400 || reply.status === 403) return reply
  if (reply.headers['Content-Type'] !== textPlain || reply.body === undefined) return reply
  const detail = reply.body.toString('utf8').trim()
  const problem = { type: 'about:blank', title: detail.split(/(?<=\.) /)[0] ?? detail, status: reply.status, detail }
  return {
    ...reply,
    headers: { ...reply.headers, 'Content-Type': PROBLEM_JSON },
    body: Buffer.from(JSON.stringify(problem), 'utf8'),
  }
}
