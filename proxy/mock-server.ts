/**
 * `mock`: serves a recording back, for client developers without a server. A request matches a
 * recorded exchange on method, path, query (order-insensitive) and media type (Content-Type for a
 * request with a body, else Accept). Several recordings of the same request are served in recorded
 * order, the last one repeating (a read after an edit shows the edit). Anything else gets a 501 that
 * says what was asked and what the recording holds.
 *
 * The recording's target base path (e.g. `/api/v1`) is found from the matched §4 endpoints and
 * optional in requests. Bodies are served decoded, so `Content-Encoding` is dropped.
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ExchangeEntry } from '../src/model/exchange.js'
import { parseMediaType } from '../src/validation/media-type.js'
import { readRecording } from './exchange-log.js'
import { basePathOfRecording, stripBasePath } from './recording-paths.js'

interface MockResponse {
  readonly status: number
  readonly statusText: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Buffer
  /** HEAD, 204, 304: no body, and the recorded Content-Length (that of the representation) as it was. */
  readonly bodiless: boolean
  readonly recordedLength: readonly string[]
}

interface MockExchange {
  readonly key: string
  readonly mediaTypes: readonly string[]
  readonly response: MockResponse
}

export interface MockRecording {
  readonly basePath: string
  readonly exchanges: readonly MockExchange[]
  readonly skipped: number
}

const DROP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'date', 'trailer', 'upgrade'])

/** Reads the recordings into memory (a mock needs them all at hand). */
export async function loadMockRecording(files: readonly string[]): Promise<MockRecording> {
  const entries: ExchangeEntry[] = []
  let skipped = 0
  for (const file of files) {
    for await (const line of readRecording(file)) {
      if ('problem' in line || line.entry._error !== undefined) skipped += 1
      else entries.push(line.entry)
    }
  }
  const basePath = basePathOfRecording(entries)
  const exchanges = entries.map((entry) => {
    const url = new URL(entry.request.url)
    const path = stripBasePath(url.pathname, basePath)
    return { key: requestKey(entry.request.method, path, url.searchParams), mediaTypes: recordedMediaTypes(entry), response: mockResponse(entry) }
  })
  return { basePath, exchanges, skipped }
}

export interface RunningMock {
  readonly url: string
  close(): Promise<void>
}

export async function startMockServer(recording: MockRecording, options: { port?: number } = {}): Promise<RunningMock> {
  const served = new Map<string, number>()
  const server = http.createServer((req, res) => {
    req.resume()
    const url = new URL(`http://mock${req.url ?? '/'}`)
    const key = requestKey(req.method ?? 'GET', stripBasePath(url.pathname, recording.basePath), url.searchParams)
    const asked = askedMediaTypes(req)
    const sameRequest = recording.exchanges.filter((exchange) => exchange.key === key)
    const candidates = asked.length === 0 ? sameRequest : sameRequest.filter((exchange) => exchange.mediaTypes.length === 0 || exchange.mediaTypes.some((type) => asked.includes(type)))
    if (candidates.length === 0) {
      const why =
        sameRequest.length === 0
          ? `no recorded exchange for ${key}`
          : `${key} was recorded for ${[...new Set(sameRequest.flatMap((exchange) => exchange.mediaTypes))].join(', ')}, not for ${asked.join(', ')}`
      const known = [...new Set(recording.exchanges.map((exchange) => exchange.key))].slice(0, 20)
      const text = `fitconform mock: ${why}.\nRecorded requests:\n${known.map((k) => `  ${k}`).join('\n')}\n`
      res.writeHead(501, 'Not Implemented', { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) })
      res.end(text)
      return
    }
    const cursorKey = `${key} ${asked.join(',')}`
    const index = served.get(cursorKey) ?? 0
    served.set(cursorKey, index + 1)
    const chosen = (candidates[Math.min(index, candidates.length - 1)] as MockExchange).response
    const headers: string[] = chosen.headers.flatMap(([name, value]) => [name, value])
    if (chosen.bodiless) headers.push(...chosen.recordedLength)
    else headers.push('content-length', String(chosen.body.length))
    res.writeHead(chosen.status, chosen.statusText === '' ? undefined : chosen.statusText, headers)
    res.end(chosen.bodiless || req.method === 'HEAD' ? undefined : chosen.body)
  })
  server.listen(options.port ?? 0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function requestKey(method: string, path: string, query: URLSearchParams): string {
  const sorted = [...query].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y))
  const search = new URLSearchParams(sorted).toString()
  return `${method.toUpperCase()} ${path}${search === '' ? '' : `?${search}`}`
}

function recordedMediaTypes(entry: ExchangeEntry): string[] {
  const headers = entry.request.headers
  const name = entry.request.postData !== undefined ? 'content-type' : 'accept'
  return essences(headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value))
}

function askedMediaTypes(req: http.IncomingMessage): string[] {
  const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0'
  const value = hasBody || req.headers['transfer-encoding'] !== undefined ? req.headers['content-type'] : req.headers.accept
  return essences(value === undefined ? [] : [value]).filter((type) => type !== '*/*')
}

function essences(values: readonly string[]): string[] {
  const out: string[] = []
  for (const value of values) {
    for (const range of value.split(',')) {
      const essence = parseMediaType(range.trim())?.essence
      if (essence !== undefined && !out.includes(essence)) out.push(essence)
    }
  }
  return out
}

function mockResponse(entry: ExchangeEntry): MockResponse {
  const { response } = entry
  const content = response.content
  const body = content.text === undefined ? Buffer.alloc(0) : Buffer.from(content.text, content.encoding === 'base64' ? 'base64' : 'utf8')
  const headers = response.headers.filter((h) => !DROP_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value] as const)
  const bodiless = entry.request.method.toUpperCase() === 'HEAD' || response.status === 204 || response.status === 304
  const recordedLength = response.headers.filter((h) => h.name.toLowerCase() === 'content-length').flatMap((h) => [h.name, h.value])
  return { status: response.status, statusText: response.statusText, headers, body, bodiless, recordedLength }
}
