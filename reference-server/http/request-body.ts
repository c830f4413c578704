// The JSON body of a write: media type check (§1 rule 3), then JSON parsing.
import type { Call } from '../call.js'
import { essenceOf, hasMediaType, mediaTypeOf, type RepresentationName } from './media-types.js'
import { ReplyProblem, textReply } from './reply.js'
import { BodyProblem } from '../representations/validation.js'

/**
 * Returns the parsed JSON body. Throws ReplyProblem 415 when the Content-Type is not the
 * representation's media type (reference and quirky modes; other-choices accepts any type), and
 * BodyProblem when the body is not JSON.
 */
export function readJsonBody(call: Call, name: RepresentationName): unknown {
  const contentType = call.headers['content-type']
  if (call.server.behaviour.strictContentType && !hasMediaType(contentType, name)) {
    const got = essenceOf(contentType) ?? 'no Content-Type'
    throw new ReplyProblem(
      textReply(
        415,
        `${call.method} ${call.pathname} takes Content-Type ${mediaTypeOf(name)} (§1 rule 3, §4), not ${got}`,
      ),
    )
  }
  const text = call.body?.toString('utf8') ?? ''
  if (text.trim() === '')
    throw new BodyProblem(`the request has no body; ${call.method} ${call.pathname} takes a ${name} JSON object`)
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    if (call.server.faults.is('bad-body-500')) throw new ReplyProblem(textReply(500, 'Internal server error.'))
    throw new BodyProblem(`the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
}
