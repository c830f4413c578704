/**
 * A recorded request/response pair, shared by the recording proxy (proxy/) and anything that reads
 * its recordings. One recording line is one `ExchangeEntry`: a HAR 1.2 `entry` (the "HTTP Archive"
 * format, http://www.softwareishard.com/blog/har-12-spec/) plus our own fields, whose names start
 * with `_` as HAR 1.2 requires for custom fields.
 *
 * Pure types: this file imports nothing. Everything here is JSON-serializable.
 */

/** HAR 1.2 name/value pair (headers, query string). */
export interface HarNameValue {
  readonly name: string
  readonly value: string
  readonly comment?: string
}

/** HAR 1.2 cookie. */
export interface HarCookie {
  readonly name: string
  readonly value: string
  readonly path?: string
  readonly domain?: string
  readonly expires?: string
  readonly httpOnly?: boolean
  readonly secure?: boolean
  readonly comment?: string
}

/** What we add to a recorded body (`postData` or `content`). */
export interface RecordedBodyExtras {
  /** The body was longer than the recording cap: `text` holds only its first bytes. */
  readonly _truncated?: boolean
  /** JSON paths whose values were replaced before writing (`--redact`, `--redact-personal`). */
  readonly _redactedPaths?: readonly string[]
}

/** HAR 1.2 `postData`; `_encoding: 'base64'` marks a binary request body (HAR has no field for it). */
export interface HarPostData extends RecordedBodyExtras {
  readonly mimeType: string
  readonly text: string
  readonly params?: readonly HarNameValue[]
  readonly comment?: string
  readonly _encoding?: 'base64'
}

/** HAR 1.2 `content`: `text` is the decoded body (after Content-Encoding), base64 when binary. */
export interface HarContent extends RecordedBodyExtras {
  readonly size: number
  readonly compression?: number
  readonly mimeType: string
  readonly text?: string
  readonly encoding?: 'base64'
  readonly comment?: string
}

export interface HarRequest {
  readonly method: string
  readonly url: string
  readonly httpVersion: string
  readonly cookies: readonly HarCookie[]
  readonly headers: readonly HarNameValue[]
  readonly queryString: readonly HarNameValue[]
  readonly postData?: HarPostData
  readonly headersSize: number
  readonly bodySize: number
  readonly comment?: string
}

export interface HarResponse {
  readonly status: number
  readonly statusText: string
  readonly httpVersion: string
  readonly cookies: readonly HarCookie[]
  readonly headers: readonly HarNameValue[]
  readonly content: HarContent
  readonly redirectURL: string
  readonly headersSize: number
  readonly bodySize: number
  readonly comment?: string
}

/** HAR 1.2 timings in milliseconds; -1 where the phase does not apply or was not measured. */
export interface HarTimings {
  readonly blocked?: number
  readonly dns?: number
  readonly connect?: number
  readonly send: number
  readonly wait: number
  readonly receive: number
  readonly ssl?: number
  readonly comment?: string
}

/** HAR 1.2 `entry`. */
export interface HarEntry {
  readonly pageref?: string
  readonly startedDateTime: string
  readonly time: number
  readonly request: HarRequest
  readonly response: HarResponse
  readonly cache: Record<string, never>
  readonly timings: HarTimings
  readonly serverIPAddress?: string
  readonly connection?: string
  readonly comment?: string
}

/** How a finding relates to the spec. */
export type FindingKind = 'violation' | 'irregularity' | 'note' | 'unknown-endpoint'

/** One observation about an exchange, made after the response was forwarded. */
export interface Finding {
  readonly kind: FindingKind
  /** A rule id of suites/rules.yaml, when the finding is about a stated rule. */
  readonly rule?: string
  /** JSON pointer into the body the finding is about ('' = the whole body). */
  readonly pointer?: string
  /** Which half of the exchange the finding is about. */
  readonly side?: 'request' | 'response'
  readonly message: string
}

/** The §4 endpoint an exchange was matched to. */
export interface EndpointRef {
  /** Row number of the endpoint table in §4 (1–9). */
  readonly row: number
  readonly method: string
  /** The path as §4 writes it, with `<activity_id>`-style segments for ids. */
  readonly path: string
}

/** Why an exchange did not complete normally. */
export interface ExchangeError {
  readonly code: ExchangeErrorCode
  readonly message: string
  /** True when the response had already started reaching the client when the failure happened. */
  readonly afterResponseStart: boolean
}

export type ExchangeErrorCode =
  | 'E_CONNECT' // the upstream could not be reached (refused, unknown host, TLS failure)
  | 'E_TIMEOUT' // the upstream was too slow (--timeout)
  | 'E_UPSTREAM_RESET' // the upstream closed or reset the connection mid-exchange
  | 'E_CLIENT_ABORTED' // the client went away before the exchange completed
  | 'E_TRANSPORT' // anything else on the way

/** One recording line: a HAR entry plus our findings and bookkeeping. */
export interface ExchangeEntry extends HarEntry {
  /** Position of the exchange in the recording session, from 1. */
  readonly _id: number
  readonly _endpoint?: EndpointRef
  readonly _findings: readonly Finding[]
  /** Keyed hash naming which bearer token was used, without storing the token. */
  readonly _tokenId?: string
  /** Present when the exchange failed; the response is then what the client got (e.g. a 502). */
  readonly _error?: ExchangeError
}

