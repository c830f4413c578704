import { performance } from 'node:perf_hooks'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici'
import { sendOnWire } from './wire-client.js'

export interface HttpClientOptions {
  readonly timeoutMs: number
  /** PEM text of extra certificate authorities (--ca). */
  readonly ca?: string
  readonly insecure: boolean
}

export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** Read the raw bytes on a fresh socket (see wire-client.ts). */
  readonly wire: boolean
}

export interface IncomingResponse {
  readonly status: number
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  readonly headers: Readonly<Record<string, string>>
  /** Decoded when the server sent a Content-Encoding (gzip, deflate, br). */
  readonly body: Buffer
  /** Bytes on the wire, before decoding: what Content-Length counts. */
  readonly wireBytes: number
  readonly durationMs: number
}

export interface HttpClient {
  send(request: OutgoingRequest): Promise<IncomingResponse>
  close(): Promise<void>
}

/**
 * The only file that imports undici. One keep-alive dispatcher per run; HTTP(S)_PROXY and NO_PROXY
 * are honoured through EnvHttpProxyAgent when set. Every body is read to the end, so sockets go back
 * to the pool. Timeouts surface as undici errors that transport-error.ts turns into diagnostics.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const connect = { ...(options.ca ? { ca: options.ca } : {}), rejectUnauthorized: !options.insecure, timeout: options.timeoutMs }
  const agentOptions = { connect, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 10_000 }
  const usesProxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name])
  const dispatcher: Dispatcher = usesProxy ? new EnvHttpProxyAgent(agentOptions) : new Agent(agentOptions)

  return {
    async send(outgoing) {
      if (outgoing.wire) return sendOnWire(outgoing, options)
      const started = performance.now()
      const response = await request(outgoing.url, {
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: outgoing.headers,
        body: outgoing.body,
        dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      const wire = Buffer.from(await response.body.arrayBuffer())
      const headers = flattenHeaders(response.headers)
      return { status: response.statusCode, headers, body: decodeContent(wire, headers['content-encoding']), wireBytes: wire.length, durationMs: performance.now() - started }
    },
    async close() {
      await dispatcher.close()
    },
  }
}

/**
 * We ask for `identity`, but RFC 9110 §12.5.3 lets a server pick a coding anyway: decode the common
 * ones so a gzip-happy server is judged on its JSON. Undecodable bytes stay as they came.
 */
function decodeContent(body: Buffer, coding: string | undefined): Buffer {
  const name = coding?.trim().toLowerCase()
  if (!name || name === 'identity' || body.length === 0) return body
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body)
    if (name === 'br') return brotliDecompressSync(body)
    if (name === 'deflate') return inflateSync(body)
  } catch {
    return body
  }
  return body
}

function flattenHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    flat[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value
  }
  return flat
}
