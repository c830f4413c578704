// Small HTTP helpers for the reference-server tests: undici for ordinary exchanges, a raw socket
// where we must see the bytes on the wire (HEAD, 304 bodies).
import { connect } from 'node:net'
import { request } from 'undici'

export interface Exchange {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

export interface SendOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS'
  /** A bearer token; null sends no Authorization header. */
  token: string | null
  headers?: Record<string, string>
  /** Sent as JSON text (strings are sent as they are). */
  body?: unknown
  /** Representation name for Content-Type, e.g. 'NewFitnessActivity'. */
  type?: string
}

export const media = (name: string) => `application/vnd.com.service.${name}+json`

export async function send(baseUrl: string, path: string, options: SendOptions): Promise<Exchange> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== null) headers.authorization = `Bearer ${options.token}`
  if (options.type !== undefined) headers['content-type'] = media(options.type)
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body)
  const url = path.startsWith('http') ? path : `${baseUrl}${path}`
  const response = await request(url, { method: options.method ?? 'GET', headers, body })
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() }
}

export function header(exchange: Exchange, name: string): string | undefined {
  const value = exchange.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(', ') : value
}

export function json<T = Record<string, unknown>>(exchange: Exchange): T {
  return JSON.parse(exchange.text) as T
}

/** Sends one request on a fresh socket with `Connection: close` and returns every byte received. */
export function rawExchange(baseUrl: string, head: string, body = ''): Promise<Buffer> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.end(`${head}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n${body}`),
    )
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks)))
  })
}

/** Splits a raw HTTP/1.1 response into its head and whatever follows the blank line. */
export function splitRaw(bytes: Buffer): { head: string; rest: Buffer } {
  const end = bytes.indexOf('\r\n\r\n')
  return { head: bytes.subarray(0, end).toString('latin1'), rest: bytes.subarray(end + 4) }
}

export interface FeedItem {
  type: string
  start_time?: string
  startTime?: string
  total_distance: number
  duration: number
  source?: string
  entry_mode?: string
  has_map?: string
  uri: string
}

export interface Feed {
  size: number
  items: FeedItem[]
  previous?: string
}

/** Follows `previous` from the first page and returns every page. */
export async function walkFeed(baseUrl: string, token: string, firstPath: string): Promise<Feed[]> {
  const pages: Feed[] = []
  let next: string | undefined = firstPath
  while (next !== undefined && pages.length < 100) {
    const exchange = await send(baseUrl, next, { token })
    if (exchange.status !== 200) throw new Error(`${next} answered ${exchange.status}: ${exchange.text}`)
    const page = json<Feed>(exchange)
    pages.push(page)
    next = page.previous
  }
  return pages
}

/** A clock the test moves by hand, for Last-Modified and If-Modified-Since. */
export function createTestClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let time = start
  return {
    now: () => time,
    advance(seconds: number) {
      time += seconds * 1000
    },
  }
}
