// What the survey sends and gets back: GET and HEAD only, for the survey never changes anything on
// the account. The engine (src/survey/survey-http.ts) carries them; the checks here only read.
import type { Diagnostic } from '../../model/diagnostic.js'
import type { RecordedRequest, RecordedResponse } from '../../model/result.js'
import type { TokenRole } from '../../model/scenario.js'
import type { RepresentationName } from '../representations.js'

export interface SurveyRequest {
  readonly method: 'GET' | 'HEAD'
  /** A path (`/user`) or a URI / URL the server gave; never a template. */
  readonly target: string
  readonly query?: Readonly<Record<string, string>>
  readonly headers?: Readonly<Record<string, string>>
  readonly accept?: RepresentationName
  /** Default: the main token. */
  readonly auth?: TokenRole
}

export interface SurveyExchange {
  readonly request: RecordedRequest
  readonly curl: string
  /** 0 when nothing came back (`error` says why). */
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** Parsed JSON, or undefined. */
  readonly body: unknown
  /** Bytes on the wire (before any Content-Encoding was decoded). */
  readonly wireBytes: number
  /** Bytes of the decoded body. */
  readonly bodyBytes: number
  readonly error?: Diagnostic
}

/** Sends one read; a transport failure comes back as an exchange with status 0 and `error`. */
export type SendRead = (request: SurveyRequest) => Promise<SurveyExchange>

/** What a report keeps of an answer: a body only when it is small (a long GPS path would swamp it). */
export function recordedResponseOf(exchange: SurveyExchange, keepBody: boolean): RecordedResponse | undefined {
  if (exchange.status === 0) return undefined
  const small = exchange.bodyBytes <= 16_384
  return {
    status: exchange.status,
    headers: exchange.headers,
    ...(keepBody && small && exchange.body !== undefined ? { body: exchange.body } : {}),
    bodyBytes: exchange.wireBytes,
    ...(keepBody && !small ? { truncated: true } : {}),
  }
}
