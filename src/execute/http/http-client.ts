import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import type { Dispatcher } from 'undici'
import { decodeContent } from '../../shared/content-decoding.js'
import { joinHeaders } from '../../shared/headers.js'
import { BodyTooLargeError } from '../../shared/transport-failure.js'
import type { HttpClient, HttpClientOptions, IncomingResponse } from './http-exchange.js'
import { noteResendFailed, resendReason, watchSocket, type SocketWatch } from './reused-connection.js'
import { sendOnWire } from './wire-client.js'

/*
 * undici's entry point loads all of undici (fetch, WebSocket, caches, mocks): ~100 ms of every run's
 * start-up, more than a hundred requests cost. The runner needs the keep-alive Agent only, so it loads
 * that module by path, and EnvHttpProxyAgent only when a proxy variable is set.
 * test/unit/execute/http/undici-modules.test.ts proves the path is the entry point's own export, so an
 * undici upgrade that moves it fails there rather than here.
 */
const require = createRequire(import.meta.url)
export const UNDICI_AGENT_MODULE = 'undici/lib/dispatcher/agent.js'
const Agent = require(UNDICI_AGENT_MODULE) as typeof import('undici').Agent

/** The default of the runner's --max-body-bytes (the proxy records bodies up to its own, smaller default). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024

/**
 * The only file that imports undici. One keep-alive dispatcher per run; HTTP(S)_PROXY and NO_PROXY
 * are honoured through EnvHttpProxyAgent when set. Every body is read to the end, so sockets go back
 * to the pool. Timeouts surface as undici errors that transport-error.ts turns into diagnostics.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const connect = {
    ...(options.ca ? { ca: options.ca } : {}),
    rejectUnauthorized: !options.insecure,
    timeout: options.timeoutMs,
  }
  const agentOptions = {
    connect,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  }
  const usesProxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name])
  const createDispatcher = (): Dispatcher =>
    usesProxy
      ? new (require('undici') as typeof import('undici')).EnvHttpProxyAgent(agentOptions)
      : new Agent(agentOptions)
  const dispatcher = createDispatcher()

  return {
    async send(outgoing) {
      const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
      if (outgoing.wire) return decoded(await sendOnWire(outgoing, { ...options, maxBodyBytes: cap }), cap)
      const started = performance.now()
      const url = new URL(outgoing.url)
      const request: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: outgoing.headers,
        body: outgoing.body ?? null,
      }
      const limits = { timeoutMs: options.timeoutMs, cap, url: outgoing.url }
      const first = exchange(dispatcher, request, limits)
      let answer: RawResponse
      let resent: string | undefined
      try {
        answer = await first.answer
      } catch (error) {
        resent = resendReason(outgoing.method, first.watch, error)
        if (resent === undefined) throw error
        answer = await onFreshConnection(createDispatcher(), request, limits, resent)
      }
      const { status, rawHeaders, wire } = answer
      const headers = joinRawHeaders(rawHeaders)
      return await decoded(
        { status, headers, body: wire, wireBytes: wire.length, durationMs: performance.now() - started, resent },
        cap,
      )
    },
    async close() {
      await dispatcher.close()
    },
  }
}

interface ExchangeLimits {
  readonly timeoutMs: number
  readonly cap: number
  readonly url: string
}

interface RawResponse {
  readonly status: number
  /** `[name, value, name, value, …]` as received. */
  readonly rawHeaders: readonly Buffer[]
  readonly wire: Buffer
}

/**
 * One request through undici's `dispatch` with a handler of our own, not its `request` API: no
 * stream, async resource or promise per chunk between the socket and our buffer (docs/benchmarks.md, the
 * 500-test workload). The body is read to the end (the socket goes back to the pool)
 * unless it passes the cap, when the request is aborted at once.
 *
 * The whole exchange, headers and body, ends within the timeout (undici's own timeouts count only
 * the wait for the headers and between two chunks, so a body that trickles in would go on for ever).
 * Its reason is the one AbortSignal.timeout gives, so a timeout reads the same (TimeoutError) in every
 * diagnostic.
 */
function exchange(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions,
  limits: ExchangeLimits,
): { answer: Promise<RawResponse>; watch: SocketWatch } {
  const watch: SocketWatch = { earlierRequests: 0, bytesReadBefore: 0 }
  const answer = new Promise<RawResponse>((resolve, reject) => {
    let abort: ((reason: Error) => void) | undefined
    let failure: Error | undefined
    let status = 0
    let rawHeaders: readonly Buffer[] = []
    const chunks: Buffer[] = []
    let length = 0
    const stop = (reason: Error): void => {
      failure ??= reason
      abort?.(reason)
    }
    const timer = setTimeout(
      () => stop(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      limits.timeoutMs,
    )
    // As AbortSignal.timeout's: a pending deadline alone does not keep the process alive.
    timer.unref()
    const settle = (error: Error | undefined): void => {
      clearTimeout(timer)
      if (error) reject(error)
      else resolve({ status, rawHeaders, wire: Buffer.concat(chunks, length) })
    }
    const handler = {
      onConnect(abortRequest: (reason: Error) => void) {
        abort = abortRequest
        if (failure) abortRequest(failure)
      },
      onHeaders(statusCode: number, headers: Buffer[], _resume: () => void) {
        if (statusCode < 200) return true // 1xx: an interim answer, the final one follows
        status = statusCode
        rawHeaders = headers
        return true
      },
      onData(chunk: Buffer) {
        length += chunk.length
        if (length > limits.cap) {
          stop(new BodyTooLargeError(limits.url, limits.cap))
          return false
        }
        chunks.push(chunk)
        return true
      },
      onComplete() {
        settle(failure)
      },
      onError(error: Error) {
        settle(failure ?? error)
      },
    } as Dispatcher.DispatchHandler
    watchSocket(watch, () => dispatcher.dispatch(request, handler))
  })
  return { answer, watch }
}

/**
 * The second and last send of a read whose reused connection closed unanswered (reused-connection.ts), on
 * a dispatcher of its own so the connection is new. Its failure is the exchange's, blamed as any other:
 * a server that closes every connection is not hidden. It gets a whole --timeout of its own.
 */
async function onFreshConnection(
  fresh: Dispatcher,
  request: Dispatcher.DispatchOptions,
  limits: ExchangeLimits,
  reason: string,
): Promise<RawResponse> {
  try {
    return await exchange(fresh, request, limits).answer
  } catch (error) {
    noteResendFailed(error, reason)
    throw error
  } finally {
    await fresh.close()
  }
}

/** Values read as latin1, as undici's own header objects read them; joinHeaders lower-cases and joins repeats. */
function joinRawHeaders(raw: readonly Buffer[]): Record<string, string> {
  const pairs: [string, string][] = []
  for (let index = 0; index + 1 < raw.length; index += 2)
    pairs.push([raw[index]!.toString('latin1'), raw[index + 1]!.toString('latin1')])
  return joinHeaders(pairs)
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
