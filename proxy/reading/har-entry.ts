/**
 * A captured exchange → one recording line (HAR 1.2 `entry` + our `_` fields), redacted.
 *
 * Mapping (HAR 1.2 field ← what went through the proxy):
 *   request.url          ← target origin + the path sent upstream (with the target's base path)
 *   request.headers      ← the client's headers, names lower-cased, credentials redacted
 *   request.postData     ← the request body (text, or base64 with `_encoding`), up to the cap
 *   response.*           ← the upstream's status and headers; or the proxy's own 502/504; or status 0
 *   response.content     ← the body with Content-Encoding undone (`text`, or base64 `encoding`)
 *   timings              ← send (request out), wait (until the response head), receive (body)
 *
 *   {"_endpoint":{"method":"GET","path":"/user","row":1},"_findings":[],"_id":1,"_tokenId":"tok_5d1f…",
 *    "cache":{},"request":{…},"response":{…},"startedDateTime":"2026-…Z","time":3.2,"timings":{…}}
 */
import type {
  EndpointRef,
  ExchangeEntry,
  Finding,
  HarContent,
  HarCookie,
  HarNameValue,
  HarPostData,
  HarRequest,
  HarResponse,
  HarTimings,
} from '../../src/model/exchange.js'
import type { DecodedBody } from '../recording/body-decoding.js'
import type { CapturedExchange } from '../recording/recorder.js'
import { cookiePairs, type SecretScrubber } from '../recording/redaction.js'
import { rawHeaderValues } from '../../src/shared/headers.js'

export interface EntryInput {
  readonly exchange: CapturedExchange
  /** Where the request went: the target's origin and the path sent upstream. */
  readonly url: URL
  readonly requestBody: DecodedBody
  readonly responseBody?: DecodedBody
  readonly endpoint?: EndpointRef
  readonly findings: readonly Finding[]
  readonly tokenId?: string
  /** Representation names of the bodies, for `--redact-personal`. */
  readonly requestRepresentation?: string
  readonly responseRepresentation?: string
}

/**
 * Builds the entry; everything in it has passed through the redactor. Every object is built with its
 * keys in sorted order, as the line is written (stable-json.ts then only checks, copies nothing), and
 * with the same keys every time: a member that does not apply is `undefined`, which JSON leaves out.
 * (Spreading optional members in costs more than the rest of building the entry.)
 */
export function toExchangeEntry(input: EntryInput, redactor: SecretScrubber): ExchangeEntry {
  const { exchange } = input
  const { endpoint, tokenId } = input
  const error = exchange.error
  const { startedDateTime, time, timings } = clockMembers(exchange)
  const entry: ExchangeEntry = {
    _endpoint: endpoint,
    _error:
      error === undefined
        ? undefined
        : { afterResponseStart: error.afterResponseStart, code: error.code, message: redactor.scrub(error.message) },
    _findings: input.findings.map((f) => sortedFinding(f, redactor)),
    _id: exchange.id,
    _tokenId: tokenId,
    cache: {},
    request: harRequest(input, redactor),
    response: harResponse(input, redactor),
    startedDateTime,
    time,
    timings,
  }
  return entry
}

/** What an entry says of when its exchange happened: the members that differ between two equal exchanges. */
export type ClockInput = Pick<CapturedExchange, 'startedAt' | 'times'>

export function clockMembers(exchange: ClockInput): Pick<ExchangeEntry, 'startedDateTime' | 'time' | 'timings'> {
  return {
    startedDateTime: exchange.startedAt.toISOString(),
    time: round(exchange.times.end - exchange.times.start),
    timings: harTimings(exchange),
  }
}

function sortedFinding(f: Finding, redactor: SecretScrubber): Finding {
  return {
    kind: f.kind,
    message: redactor.scrub(f.message),
    pointer: f.pointer,
    repeated: f.repeated,
    rule: f.rule,
    side: f.side,
  }
}

function harRequest(input: EntryInput, redactor: SecretScrubber): HarRequest {
  const { exchange, url } = input
  const contentType = rawHeaderValues(exchange.requestHeaders, 'content-type')[0]
  const postData: HarPostData | undefined =
    exchange.requestBody.size === 0
      ? undefined
      : (() => {
          const body = recordBody(input.requestBody, {
            redactor,
            representation: input.requestRepresentation,
            mimeType: contentType,
          })
          return {
            _encoding: body.base64 ? ('base64' as const) : undefined,
            _redactedPaths: body.redactedPaths.length > 0 ? body.redactedPaths : undefined,
            _truncated: body.truncated ? true : undefined,
            mimeType: contentType ?? 'application/octet-stream',
            text: body.text,
          }
        })()
  return {
    bodySize: exchange.requestBody.size,
    cookies: harCookies(exchange.requestHeaders, 'cookie', redactor),
    headers: harHeaders(exchange.requestHeaders, redactor),
    headersSize: -1,
    httpVersion: exchange.httpVersion,
    method: exchange.method,
    postData,
    queryString: [...url.searchParams].map(([name, value]) => ({
      name: redactor.scrub(name),
      value: redactor.scrub(value),
    })),
    url: redactor.scrub(url.href),
  }
}

function harResponse(input: EntryInput, redactor: SecretScrubber): HarResponse {
  const { exchange } = input
  const response = exchange.response
  if (response === undefined || exchange.generated !== undefined) {
    const generated = exchange.generated
    return {
      bodySize: generated === undefined ? 0 : Buffer.byteLength(generated.body),
      comment:
        generated === undefined
          ? 'no response reached the client'
          : 'generated by the fitconform proxy: the upstream gave no usable response',
      content: {
        mimeType: generated === undefined ? 'x-unknown' : 'text/plain; charset=utf-8',
        size: generated === undefined ? 0 : Buffer.byteLength(generated.body),
        text: generated === undefined ? undefined : redactor.scrub(generated.body),
      },
      cookies: [],
      headers: generated === undefined ? [] : [{ name: 'content-type', value: 'text/plain; charset=utf-8' }],
      headersSize: -1,
      httpVersion: generated === undefined ? '' : 'HTTP/1.1',
      redirectURL: '',
      status: generated?.status ?? 0,
      statusText: generated?.statusText ?? '',
    }
  }
  const contentType = rawHeaderValues(response.rawHeaders, 'content-type')[0]
  const decoded = input.responseBody
  const content: HarContent =
    decoded === undefined || decoded.bytes.length === 0
      ? { _truncated: decoded?.truncated === true ? true : undefined, mimeType: contentType ?? 'x-unknown', size: 0 }
      : (() => {
          const body = recordBody(decoded, {
            redactor,
            representation: input.responseRepresentation,
            mimeType: contentType,
          })
          const encoded = decoded.transferSize !== decoded.bytes.length
          return {
            _redactedPaths: body.redactedPaths.length > 0 ? body.redactedPaths : undefined,
            _truncated: body.truncated ? true : undefined,
            comment: decoded.decodeError,
            compression: encoded && !decoded.truncated ? decoded.bytes.length - decoded.transferSize : undefined,
            encoding: body.base64 ? ('base64' as const) : undefined,
            mimeType: contentType ?? 'x-unknown',
            size: decoded.truncated && !encoded ? decoded.transferSize : decoded.bytes.length,
            text: body.text,
          }
        })()
  return {
    bodySize: decoded?.transferSize ?? 0,
    content,
    cookies: harCookies(response.rawHeaders, 'set-cookie', redactor),
    headers: harHeaders(response.rawHeaders, redactor),
    headersSize: -1,
    httpVersion: 'HTTP/1.1',
    redirectURL: redactor.scrub(rawHeaderValues(response.rawHeaders, 'location')[0] ?? ''),
    status: response.status,
    statusText: response.statusText,
  }
}

interface RecordedBody {
  readonly text: string
  readonly base64: boolean
  readonly truncated: boolean
  readonly redactedPaths: string[]
}

function recordBody(
  decoded: DecodedBody,
  options: { redactor: SecretScrubber; representation?: string; mimeType?: string },
): RecordedBody {
  const { redactor } = options
  if (decoded.text === undefined) {
    return {
      text: redactor.scrubBytes(decoded.bytes).toString('base64'),
      base64: true,
      truncated: decoded.truncated,
      redactedPaths: [],
    }
  }
  let text = decoded.text
  let redactedPaths: string[] = []
  if (redactor.hasBodyPaths() && /json/i.test(options.mimeType ?? '')) {
    try {
      if (decoded.truncated) throw new Error('truncated')
      const redacted = redactor.redactBody(JSON.parse(text) as unknown, options.representation)
      if (redacted.pointers.length > 0) {
        text = JSON.stringify(redacted.value)
        redactedPaths = redacted.pointers
      }
    } catch {
      // A body that cannot be walked cannot be redacted by path: it is not written at all.
      return { text: '', base64: false, truncated: true, redactedPaths: [''] }
    }
  }
  return { text: redactor.scrub(text), base64: false, truncated: decoded.truncated, redactedPaths }
}

function harHeaders(rawHeaders: readonly string[], redactor: SecretScrubber): HarNameValue[] {
  const headers: HarNameValue[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    headers.push({ name, value: redactor.redactHeader(name, rawHeaders[i + 1] as string) })
  }
  return headers
}

function harCookies(
  rawHeaders: readonly string[],
  header: 'cookie' | 'set-cookie',
  redactor: SecretScrubber,
): HarCookie[] {
  const cookies: HarCookie[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== header) continue
    for (const [name, value] of cookiePairs(rawHeaders[i + 1] as string, header === 'set-cookie')) {
      cookies.push({
        name: redactor.scrub(name),
        value: redactor.isRedactedHeader(header) ? `[redacted ${redactor.idOf(value, 'ck')}]` : redactor.scrub(value),
      })
    }
  }
  return cookies
}

function harTimings(exchange: ClockInput): HarTimings {
  const { start, end } = exchange.times
  const head = exchange.times.responseStart ?? end
  // A server may answer before it read the whole request: the send phase then ends at the head.
  const sent = Math.min(exchange.times.requestSent ?? head, head)
  return {
    blocked: -1,
    connect: -1,
    dns: -1,
    receive: round(end - head),
    send: round(sent - start),
    ssl: -1,
    wait: round(head - sent),
  }
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000)
}
