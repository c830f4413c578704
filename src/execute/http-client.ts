import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import type { Dispatcher } from 'undici'
import { decodeContent } from '../shared/content-decoding.js'
import { joinHeaders } from '../shared/headers.js'
import { BodyTooLargeError } from '../shared/transport-failure.js'
import type { HttpClient, HttpClientOptions, IncomingResponse } from './http-exchange.js'
import { sendOnWire } from './wire-client.js'

/*
 * undici's entry point loads all of undici (fetch, WebSocket, caches, mocks): ~100 ms of every run's
 * start-up, more than a hundred requests cost. The runner needs the keep-alive Agent and `request`
 * only, so it loads those two modules by path, and EnvHttpProxyAgent only when a proxy variable is
 * set. test/unit/execute/undici-modules.test.ts proves these paths are the entry point's own exports,
 * so an undici upgrade that moves them fails there rather than here.
 */
const require = createRequire(import.meta.url)
export const UNDICI_AGENT_MODULE = 'undici/lib/dispatcher/agent.js'
export const UNDICI_REQUEST_MODULE = 'undici/lib/api/api-request.js'
const Agent = require(UNDICI_AGENT_MODULE) as typeof import('undici').Agent
/** Called with the dispatcher as `this`, as undici's entry point does when it adds it to Dispatcher.prototype. */
const dispatchRequest = require(UNDICI_REQUEST_MODULE) as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>

/** The default of the runner's --max-body-bytes (the proxy records bodies up to its own, smaller default). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024

/**
 * The only file that imports undici. One keep-alive dispatcher per run; HTTP(S)_PROXY and NO_PROXY
 * are honoured through EnvHttpProxyAgent when set. Every body is read to the end, so sockets go back
 * to the pool. Timeouts surface as undici errors that transport-error.ts turns into diagnostics.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const connect = { ...(options.ca ? { ca: options.ca } : {}), rejectUnauthorized: !options.insecure, timeout: options.timeoutMs }
  const agentOptions = { connect, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 10_000 }
  const usesProxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name])
  const dispatcher: Dispatcher = usesProxy ? new (require('undici') as typeof import('undici')).EnvHttpProxyAgent(agentOptions) : new Agent(agentOptions)

  return {
    async send(outgoing) {
      const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
      if (outgoing.wire) return decoded(await sendOnWire(outgoing, { ...options, maxBodyBytes: cap }), cap)
      const started = performance.now()
      const url = new URL(outgoing.url)
      const deadline = new Deadline(options.timeoutMs)
      try {
        const response = await dispatchRequest.call(dispatcher, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: outgoing.method as Dispatcher.HttpMethod,
          headers: outgoing.headers,
          body: outgoing.body,
          signal: deadline,
        })
        const wire = await readCapped(response.body, cap, outgoing.url)
        const headers = joinHeaders(Object.entries(response.headers))
        return await decoded({ status: response.statusCode, headers, body: wire, wireBytes: wire.length, durationMs: performance.now() - started }, cap)
      } finally {
        deadline.clear()
      }
    },
    async close() {
      await dispatcher.close()
    },
  }
}

/**
 * The whole exchange, headers and body, ends within the timeout (undici's own timeouts count only
 * the wait for the headers and between two chunks, so a body that trickles in would go on for ever).
 * undici takes an EventEmitter as its signal: an emitter and a timer cost half of what
 * AbortSignal.timeout and its EventTarget listeners do, on every request. The reason is the one
 * AbortSignal.timeout gives, so a timeout reads the same (TimeoutError) in every diagnostic.
 */
class Deadline extends EventEmitter {
  aborted = false
  reason: unknown
  private readonly timer: NodeJS.Timeout

  constructor(timeoutMs: number) {
    super()
    this.timer = setTimeout(() => {
      this.aborted = true
      this.reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError')
      this.emit('abort')
    }, timeoutMs)
    // As AbortSignal.timeout's: a pending deadline alone does not keep the process alive.
    this.timer.unref()
  }

  clear(): void {
    clearTimeout(this.timer)
  }
}

/** Reads a body chunk by chunk and stops (closing the stream) as soon as it passes the cap. */
async function readCapped(body: Dispatcher.ResponseData['body'], cap: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length
    if (length > cap) {
      body.destroy()
      throw new BodyTooLargeError(url, cap)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, length)
}

/**
 * We ask for `identity`, but RFC 9110 §12.5.3 lets a server pick a coding anyway: decode the common
 * ones so a gzip-happy server is judged on its JSON. Undecodable bytes stay as they came; a body that
 * decodes past the cap is as too large as one sent that large.
 */
async function decoded(response: IncomingResponse, cap: number): Promise<IncomingResponse> {
  const coding = response.headers['content-encoding']
  if (coding === undefined || response.body.length === 0) return response
  const { bytes, truncated, decodeError } = await decodeContent(response.body, coding, cap)
  if (truncated) throw new BodyTooLargeError('the decoded body', cap)
  return decodeError === undefined ? { ...response, body: bytes } : response
}
