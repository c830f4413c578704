import { connect as connectTcp, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { connect as connectTls } from 'node:tls'
import { headerMap, joinHeaders } from '../../shared/headers.js'
import { BodyTooLargeError, InvalidResponseError, ResponseTimeoutError } from '../../shared/transport-failure.js'
import type { HttpClientOptions, IncomingResponse, OutgoingRequest } from './http-exchange.js'

/** After the last byte, how long a server that ignores `Connection: close` gets to send stray bytes. */
const IDLE_AFTER_RESPONSE_MS = 300

/** Response head (status line and headers) larger than this is not a response we can judge. */
const MAX_HEAD_BYTES = 64 * 1024

/**
 * Sends one request on a fresh socket with `Connection: close` and keeps every byte until the server
 * closes. HTTP clients drop bytes a server sends after a HEAD, 204 or 304 response (they surface later
 * as a garbled next response on the same connection); here they stay visible as the response body.
 */
export function sendOnWire(
  outgoing: OutgoingRequest,
  options: HttpClientOptions & { readonly maxBodyBytes: number },
): Promise<IncomingResponse> {
  const url = new URL(outgoing.url)
  const started = performance.now()
  return new Promise((resolve, reject) => {
    // URL keeps the brackets of an IPv6 literal ([::1]); sockets want the bare address.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    const socket: Socket =
      url.protocol === 'https:'
        ? connectTls({
            host,
            port: Number(url.port || 443),
            ...(host === url.hostname ? { servername: host } : {}),
            ...(options.ca ? { ca: options.ca } : {}),
            rejectUnauthorized: !options.insecure,
          })
        : connectTcp({ host, port: Number(url.port || 80) })
    const chunks: Buffer[] = []
    let received = 0
    /** Where the body starts, once the blank line after the headers has arrived. */
    let bodyStart: number | undefined
    /** The last three bytes seen while the head is incomplete: the blank line may straddle chunks. */
    let tail = Buffer.alloc(0)
    let idleTimer: NodeJS.Timeout | undefined
    let settled = false
    const finish = (error?: Error): void => {
      if (settled) return
      settled = true
      clearTimeout(overall)
      clearTimeout(idleTimer)
      socket.destroy()
      if (error) return reject(error)
      try {
        const parsed = parseRawResponse(Buffer.concat(chunks), outgoing.method)
        resolve({ ...parsed, wireBytes: parsed.body.length, durationMs: performance.now() - started })
      } catch (parseError) {
        reject(parseError as Error)
      }
    }
    const overall = setTimeout(
      () =>
        finish(chunks.length > 0 ? undefined : new ResponseTimeoutError(`no response within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    socket.setNoDelay(true)
    socket.on('connect', () => socket.write(serialiseRequest(outgoing, url)))
    socket.on('secureConnect', () => undefined)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      received += chunk.length
      clearTimeout(idleTimer)
      if (bodyStart === undefined) {
        const window = Buffer.concat([tail, chunk])
        const at = window.indexOf('\r\n\r\n')
        if (at >= 0) bodyStart = received - window.length + at + 4
        else tail = window.subarray(-3)
      }
      if (bodyStart === undefined && received > MAX_HEAD_BYTES)
        return finish(new BodyTooLargeError(`${outgoing.url} (its headers)`, MAX_HEAD_BYTES))
      if (bodyStart !== undefined && received - bodyStart > options.maxBodyBytes)
        return finish(new BodyTooLargeError(outgoing.url, options.maxBodyBytes))
      if (bodyStart !== undefined) idleTimer = setTimeout(() => finish(), IDLE_AFTER_RESPONSE_MS)
    })
    socket.on('end', () => finish())
    socket.on('close', () => finish())
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(chunks.length > 0 && error.code === 'ECONNRESET' ? undefined : error),
    )
  })
}

function serialiseRequest(outgoing: OutgoingRequest, url: URL): Buffer {
  const body = outgoing.body === undefined ? undefined : Buffer.from(outgoing.body)
  const lines = [`${outgoing.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: close']
  for (const [name, value] of Object.entries(outgoing.headers)) {
    if (name !== 'host' && name !== 'connection' && name !== 'content-length') lines.push(`${name}: ${value}`)
  }
  if (body) lines.push(`content-length: ${body.length}`)
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body ?? Buffer.alloc(0)])
}

/** Status, headers and every byte after them; a chunked body is decoded unless no body was allowed at all. */
export function parseRawResponse(raw: Buffer, method: string): Omit<IncomingResponse, 'durationMs' | 'wireBytes'> {
  // Interim 1xx responses (100 Continue, 103 Early Hints) come before the final one: skip them.
  while (/^HTTP\/1\.[01] 1\d\d/.test(raw.subarray(0, 16).toString('latin1'))) {
    const interimEnd = raw.indexOf('\r\n\r\n')
    if (interimEnd < 0) break
    raw = raw.subarray(interimEnd + 4)
  }
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) throw new InvalidResponseError('the server closed the connection before the end of the response headers')
  const [statusLine = '', ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)
  if (!status) throw new InvalidResponseError(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine.slice(0, 60))}`)
  const rawHeaders: string[] = []
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon > 0) rawHeaders.push(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  const headers = joinHeaders(headerMap(rawHeaders))
  const code = Number(status[1])
  const rest = raw.subarray(end + 4)
  const bodyForbidden = method === 'HEAD' || code === 204 || code === 304 || code < 200
  const chunked = /\bchunked\b/i.test(headers['transfer-encoding'] ?? '')
  return { status: code, headers, body: !bodyForbidden && chunked ? decodeChunked(rest) : rest }
}

/** The chunks' data, then any bytes after the terminating chunk and trailers: stray bytes stay visible. */
function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = []
  let position = 0
  while (position < data.length) {
    const lineEnd = data.indexOf('\r\n', position)
    if (lineEnd < 0) return Buffer.concat([...parts, data.subarray(position)])
    const size = parseInt(data.subarray(position, lineEnd).toString('latin1'), 16)
    if (!Number.isFinite(size)) return Buffer.concat([...parts, data.subarray(position)])
    if (size === 0) {
      const trailersEnd = data.indexOf('\r\n\r\n', lineEnd)
      const after = trailersEnd < 0 ? lineEnd + 2 : trailersEnd + 4
      return Buffer.concat([...parts, data.subarray(Math.min(after, data.length))])
    }
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    position = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}
