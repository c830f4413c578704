/**
 * A recorded request/response pair, shared by the recording proxy (proxy/) and anything that reads
 * its recordings. One recording line is one `ExchangeEntry`: a HAR 1.2 `entry` (the "HTTP Archive"
 * format, http://www.softwareishard.com/blog/har-12-spec/) plus our own fields, whose names start
 * with `_` as HAR 1.2 requires for custom fields.
 *
 * Pure types: the HAR 1.2 ones come from @types/har-format, our fields are added to them. Everything
 * here is JSON-serializable.
 */

import type { Content, Cookie, Entry, Header, PostDataCommon, Request, Response, Timings } from 'har-format'

/** HAR 1.2 name/value pair (headers, query string). */
export type HarNameValue = Readonly<Header>

/** HAR 1.2 cookie. */
export type HarCookie = Readonly<Cookie>

/** What we add to a recorded body (`postData` or `content`). */
export interface RecordedBodyExtras {
  /** The body was longer than the recording cap: `text` holds only its first bytes. */
  readonly _truncated?: boolean
  /** JSON paths whose values were replaced before writing (`--redact`, `--redact-personal`). */
  readonly _redactedPaths?: readonly string[]
}

/** HAR 1.2 `postData`, always with its `text`; `_encoding: 'base64'` marks a binary request body (HAR has no field for it). */
export type HarPostData = Readonly<PostDataCommon> &
  RecordedBodyExtras & {
    readonly text: string
    readonly params?: readonly HarNameValue[]
    readonly _encoding?: 'base64'
  }

/** HAR 1.2 `content`: `text` is the decoded body (after Content-Encoding), base64 when binary. */
export type HarContent = Readonly<Omit<Content, 'encoding'>> & RecordedBodyExtras & { readonly encoding?: 'base64' }

type HarMessageLists = 'cookies' | 'headers'

export type HarRequest = Readonly<Omit<Request, HarMessageLists | 'queryString' | 'postData'>> & {
  readonly cookies: readonly HarCookie[]
  readonly headers: readonly HarNameValue[]
  readonly queryString: readonly HarNameValue[]
  readonly postData?: HarPostData
}

export type HarResponse = Readonly<Omit<Response, HarMessageLists | 'content'>> & {
  readonly cookies: readonly HarCookie[]
  readonly headers: readonly HarNameValue[]
  readonly content: HarContent
}

/** HAR 1.2 timings in milliseconds; -1 where the phase does not apply or was not measured. We always measure `send`. */
export type HarTimings = Readonly<Timings> & { readonly send: number }

/** HAR 1.2 `entry` (the types of @types/har-format, read-only, with the parts above). */
export type HarEntry = Readonly<Omit<Entry, 'request' | 'response' | 'cache' | 'timings'>> & {
  readonly request: HarRequest
  readonly response: HarResponse
  readonly cache: Record<string, never>
  readonly timings: HarTimings
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
  /** The same problem on `count` of the `of` items of one array, told once (its pointer is the first). */
  readonly repeated?: { readonly count: number; readonly of: number }
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
