// Handlers return a Reply value instead of writing to the response: HEAD, the mode's extra headers,
// chunking and fault injection can then all be applied in one place (dispatch.ts, send-reply.ts).
import { contentTypeOf, textPlain, type RepresentationName } from './media-types.js'
import type { ModeBehaviour } from '../modes.js'
import { addExtraFields } from '../representations/quirks.js'

export interface Reply {
  status: number
  /** Header names in their usual capitalisation (`Content-Type`, `Last-Modified`). */
  headers: Record<string, string>
  body?: Buffer
  /** Bytes written to the socket after the response, for mutants only (faults.ts). */
  rawAfterEnd?: Buffer
  /** The Content-Length a HEAD announces instead of the body's own, for a mutant only. */
  headContentLength?: number
}

/** Thrown by helpers deep inside a handler to answer at once with this reply (404, 415, …). */
export class ReplyProblem extends Error {
  constructor(readonly reply: Reply) {
    super(`answered ${reply.status}`)
  }
}

/** A human-readable error (§7 rule 5: other error codes carry human-readable messages). */
export function textReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { ...headers, 'Content-Type': textPlain }, body: Buffer.from(`${message}\n`, 'utf8') }
}

export function emptyReply(status: number, headers: Record<string, string> = {}): Reply {
  return { status, headers }
}

/** A representation: compact JSON with its media type (§1 rules 2–3). */
export function jsonReply(
  behaviour: ModeBehaviour,
  name: RepresentationName,
  value: unknown,
  headers: Record<string, string> = {},
  status = 200,
): Reply {
  const body = behaviour.quirks ? addExtraFields(value) : value
  return {
    status,
    headers: { ...headers, 'Content-Type': contentTypeOf(name, behaviour) },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  }
}
