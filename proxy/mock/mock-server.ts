/**
 * `mock`: serves a recording back, for client developers without a server. Which recorded exchange
 * answers a request is mock-matching.ts's job; anything without a match gets a 501 that names the
 * nearest recorded request and why it did not match. One log line per request.
 *
 * The recording's target base path (e.g. `/api/v1`) is found from the matched §4 endpoints and
 * optional in requests. Bodies are served decoded, so `Content-Encoding` is dropped. With a certificate
 * and key it serves HTTPS, as `proxy --tls-cert/--tls-key` does.
 */
import { createHmac, randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { ExchangeEntry } from '../../src/model/exchange.js'
import { DEFAULT_HOST, listenUrl } from '../commands/listen-address.js'
import {
  CONDITIONAL_HEADERS,
  credentialIdentities,
  describeRequest,
  matchRequest,
  mediaTypeEssences,
  sortedQuery,
  type RecordedFacts,
  type RequestFacts,
} from './mock-matching.js'
import { readExchanges, type SkippedLine } from '../reading/read-exchanges.js'
import { basePathOfRecording, stripBasePath } from '../recording/recording-paths.js'
import { SecretScrubber } from '../recording/redaction.js'

interface MockResponse {
  readonly status: number
  readonly statusText: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Buffer
  /** HEAD, 204, 304: no body, and the recorded Content-Length (that of the representation) as it was. */
  readonly bodiless: boolean
  readonly recordedLength: readonly string[]
}

interface MockExchange extends RecordedFacts {
  readonly response: MockResponse
}

export interface MockRecording {
  readonly basePath: string
  readonly exchanges: readonly MockExchange[]
  /** Failed exchanges (a 502 the proxy made up is no answer of the server). */
  readonly failed: number
  /** The credentials it tells apart (`credentialIdentities`): more than one needs the key to be replayed. */
  readonly credentials: readonly string[]
}

const DROP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
  'trailer',
  'upgrade',
])

/** Reads the recordings into memory (a mock needs them all at hand); malformed lines go to `onSkipped`. */
export async function loadMockRecording(
  files: readonly string[],
  onSkipped: (skipped: SkippedLine) => void,
): Promise<MockRecording> {
  const entries: ExchangeEntry[] = []
  let failed = 0
  for await (const { entry } of readExchanges(files, onSkipped)) {
    if (entry._error !== undefined) failed += 1
    else entries.push(entry)
  }
  const basePath = basePathOfRecording(entries)
  const exchanges = entries.map((entry): MockExchange => {
    const url = new URL(entry.request.url)
    const headers = entry.request.headers
    const named = (name: string): string[] => headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value)
    return {
      id: entry._id,
      status: entry.response.status,
      method: entry.request.method.toUpperCase(),
      path: stripBasePath(url.pathname, basePath),
      query: sortedQuery(url.searchParams),
      mediaTypes: mediaTypeEssences(named(entry.request.postData !== undefined ? 'content-type' : 'accept')),
      credentialSent: named('authorization').length > 0,
      tokenId: entry._tokenId,
      conditional: conditionalOf((name) => named(name)[0]),
      response: mockResponse(entry),
    }
  })
  return { basePath, exchanges, failed, credentials: credentialIdentities(exchanges) }
}

export interface MockServerOptions {
  readonly port?: number
  readonly host?: string
  /** FITCONFORM_REDACT_KEY: with the recording's key, a request's credential is matched to the recorded one. */
  readonly redactKey?: string
  /** Listen with TLS (`--tls-cert`, `--tls-key`), PEM contents. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer }
  /** One line per request. */
  readonly log?: (line: string) => void
}

export interface RunningMock {
  readonly url: string
  close(): Promise<void>
}

/** Starts listening; rejects with the listen error (EADDRINUSE …) for the command to explain. */
export async function startMockServer(recording: MockRecording, options: MockServerOptions = {}): Promise<RunningMock> {
  const served = new Map<string, number>()
  const redactor = options.redactKey === undefined ? undefined : new SecretScrubber({ key: options.redactKey })
  // Without the key, several recorded users cannot be told apart: no credential is answered as one of them.
  const identify = redactor === undefined && recording.credentials.length > 1 ? 'refuse' : 'match'
  // Who asks, for the recorded-order counters: a hash of the credential under a key that dies with the mock.
  const callerKey = randomBytes(32)
  const log = options.log ?? (() => {})
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    req.resume()
    const request = requestFacts(req, recording.basePath, redactor, identify, callerKey)
    const outcome = matchRequest(recording.exchanges, request, served)
    const shown = describeRequest({ ...request, query: maskQuery(request.query) })
    if (outcome.kind === 'miss') {
      const text = `fitconform mock: ${outcome.explanation}\n`
      res.writeHead(501, 'Not Implemented', {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      })
      res.end(text)
      // The request itself is shown masked; the nearest one comes from the recording, which is redacted.
      const nearest = outcome.nearest
      log(
        `${shown} → 501 no match${nearest === undefined ? '' : `; nearest #${nearest.id} ${nearest.request} → ${nearest.status}: ${nearest.reasons.join('; ')}`}`,
      )
      return
    }
    const chosen = outcome.exchange.response
    const headers: string[] = chosen.headers.flatMap(([name, value]) => [name, value])
    if (chosen.bodiless) headers.push(...chosen.recordedLength)
    else headers.push('content-length', String(chosen.body.length))
    try {
      res.writeHead(chosen.status, chosen.statusText === '' ? undefined : chosen.statusText, headers)
    } catch (error) {
      // A hand-edited recording can hold a status or header Node refuses to send: say so, keep serving.
      const text = `fitconform mock: recorded exchange #${outcome.exchange.id} cannot be sent back: ${(error as Error).message}\n`
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) })
      res.end(text)
      log(`${shown} → 500 recorded exchange #${outcome.exchange.id} cannot be sent back: ${(error as Error).message}`)
      return
    }
    res.end(chosen.bodiless || req.method === 'HEAD' ? undefined : chosen.body)
    log(`${shown} → ${chosen.status} (recorded #${outcome.exchange.id})`)
  }
  const server =
    options.tls === undefined
      ? http.createServer(onRequest)
      : https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
  const host = options.host ?? DEFAULT_HOST
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    url: listenUrl(options.tls === undefined ? 'http' : 'https', host, (server.address() as AddressInfo).port),
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function requestFacts(
  req: http.IncomingMessage,
  basePath: string,
  redactor: SecretScrubber | undefined,
  identify: 'match' | 'refuse',
  callerKey: Buffer,
): RequestFacts {
  const url = new URL(`http://mock${req.url ?? '/'}`)
  const hasBody =
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') ||
    req.headers['transfer-encoding'] !== undefined
  const mediaHeader = hasBody ? req.headers['content-type'] : req.headers.accept
  const authorization = req.headers.authorization
  const tokenId =
    authorization === undefined || redactor === undefined
      ? undefined
      : redactor.learn([['authorization', authorization]])
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: stripBasePath(url.pathname, basePath),
    query: sortedQuery(url.searchParams),
    mediaTypes: mediaTypeEssences(mediaHeader === undefined ? [] : [mediaHeader]),
    credentialSent: authorization !== undefined,
    tokenId,
    unidentified: authorization !== undefined && identify === 'refuse',
    caller:
      authorization === undefined ? '' : createHmac('sha256', callerKey).update(authorization).digest('base64url'),
    conditional: conditionalOf((name) => {
      const value = req.headers[name]
      return Array.isArray(value) ? value[0] : value
    }),
  }
}

function conditionalOf(get: (name: string) => string | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const name of CONDITIONAL_HEADERS) {
    const value = get(name)
    if (value !== undefined) out.set(name, value)
  }
  return out
}

/** Log lines never show a query value that may be a secret (`access_token=…`, `api_key=…`). */
function maskQuery(query: string): string {
  if (query === '') return query
  const params = new URLSearchParams(query)
  const masked = [...params].map(([name, value]): [string, string] => [
    name,
    /token|key|secret|password|code|auth/i.test(name) ? 'redacted' : value,
  ])
  return new URLSearchParams(masked).toString()
}

function mockResponse(entry: ExchangeEntry): MockResponse {
  const { response } = entry
  const content = response.content
  const body =
    content.text === undefined
      ? Buffer.alloc(0)
      : Buffer.from(content.text, content.encoding === 'base64' ? 'base64' : 'utf8')
  const headers = response.headers
    .filter((h) => !DROP_HEADERS.has(h.name.toLowerCase()))
    .map((h) => [h.name, h.value] as const)
  const bodiless = entry.request.method.toUpperCase() === 'HEAD' || response.status === 204 || response.status === 304
  const recordedLength = response.headers
    .filter((h) => h.name.toLowerCase() === 'content-length')
    .flatMap((h) => [h.name, h.value])
  return { status: response.status, statusText: response.statusText, headers, body, bodiless, recordedLength }
}
