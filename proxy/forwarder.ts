/**
 * The proxy core: the only file that knows which HTTP library moves the bytes (STYLE §2.12).
 *
 * Chosen by measurement (bench/proxy-core-comparison.ts): a node:http server hands each request to an
 * undici `Pool` through `dispatch` with a raw handler. Against http-proxy 1.18.1 and http-proxy-3 it
 * keeps upstream connections alive without an extra agent, gives the raw response header list (so
 * repeated `Set-Cookie` stay repeated), streams with backpressure both ways, cancels the upstream
 * request when the client goes away, closes the upstream socket after a HEAD or a conditional read
 * (so bytes a broken upstream sends after a bodiless response cannot become the next response), and
 * never adds a `Content-Length: 0` to a DELETE.
 *
 * The forwarder judges nothing: it streams, and tells an observer what went by.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { Pool, type Dispatcher } from 'undici'
import type { ExchangeError, ExchangeErrorCode } from '../src/model/exchange.js'
import { classifyTransportError } from '../src/shared/transport-failure.js'
import { endToEndHeaders } from './target.js'

export interface ForwarderOptions {
  /** The server to forward to; a base path is put in front of every client path. */
  readonly target: URL
  /** Upstream headers and idle-body timeout in milliseconds (`--timeout`). */
  readonly timeoutMs?: number
  /** Accept a self-signed certificate from an HTTPS target (`--insecure`). */
  readonly insecure?: boolean
  /** Most upstream connections at once; unlimited by default. */
  readonly connections?: number
}

/** The head of the upstream response, as received. */
export interface ResponseHead {
  readonly status: number
  readonly statusText: string
  /** `[name, value, name, value, …]` in the upstream's order, repeated headers repeated. */
  readonly rawHeaders: readonly string[]
}

/** What a proxy core measured, in milliseconds since `performance.timeOrigin`. */
export interface ForwardTimes {
  readonly start: number
  readonly requestSent?: number
  readonly responseStart?: number
  readonly end: number
}

/** How a forwarded exchange ended; `generated` is the response the proxy itself sent instead. */
export interface ForwardOutcome {
  readonly times: ForwardTimes
  readonly upstreamPath: string
  readonly error?: ExchangeError
  readonly generated?: { readonly status: number; readonly statusText: string; readonly body: string }
}

/** Taps on one exchange; every method is optional except `onDone`, which is called exactly once. */
export interface ForwardObserver {
  onRequestBody?(chunk: Buffer): void
  onResponseHead?(head: ResponseHead): void
  onResponseBody?(chunk: Buffer): void
  onDone(outcome: ForwardOutcome): void
}

/** One client request to forward, its path upstream already mapped (target.ts). */
export interface ForwardRequest {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly upstreamPath: string
  readonly observer: ForwardObserver
}

export interface Forwarder {
  forward(request: ForwardRequest): void
  close(): Promise<void>
}

/** Request headers a client sends to us that must not go on: `Host` is the target's, `Expect` is answered here. */
const DROP_FROM_REQUEST = new Set(['host', 'expect'])

export function createForwarder(options: ForwarderOptions): Forwarder {
  const timeout = options.timeoutMs ?? 30_000
  const pool = new Pool(options.target.origin, {
    connections: options.connections ?? null,
    pipelining: 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    connect: { rejectUnauthorized: options.insecure !== true, timeout },
  })
  return {
    forward: (request) => {
      forwardOne({ ...request, pool, target: options.target })
    },
    close: async () => {
      await pool.close()
    },
  }
}

interface ForwardJob extends ForwardRequest {
  readonly pool: Pool
  readonly target: URL
}

function forwardOne(job: ForwardJob): void {
  const { pool, target, req, res, upstreamPath, observer } = job
  const start = performance.now()
  let requestSent: number | undefined
  let responseStart: number | undefined
  let abortUpstream: ((reason?: Error) => void) | undefined
  let done = false

  const finish = (extra: Pick<ForwardOutcome, 'error' | 'generated'> = {}): void => {
    if (done) return
    done = true
    const times: ForwardTimes = { start, requestSent, responseStart, end: performance.now() }
    observer.onDone({ times, upstreamPath, ...extra })
  }

  const fail = (code: ExchangeErrorCode, message: string): void => {
    const afterResponseStart = res.headersSent
    const error: ExchangeError = { code, message, afterResponseStart }
    if (afterResponseStart || res.destroyed || code === 'E_CLIENT_ABORTED') {
      // The status line is gone already: the only honest signal left is a cut connection.
      res.destroy()
      finish({ error })
      return
    }
    const status = code === 'E_TIMEOUT' ? 504 : 502
    const statusText = status === 504 ? 'Gateway Timeout' : 'Bad Gateway'
    const body = `fitconform proxy: ${message}\n`
    res.writeHead(status, statusText, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
    finish({ error, generated: { status, statusText, body } })
  }

  if (res.destroyed) {
    // Gone while the request was held back (the recording thread catching up): nothing to forward.
    fail('E_CLIENT_ABORTED', 'the client closed the connection before the request was forwarded')
    return
  }
  res.on('close', () => {
    if (res.writableFinished || done) return
    abortUpstream?.(new ClientGoneError())
    fail('E_CLIENT_ABORTED', 'the client closed the connection before the exchange completed')
  })

  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
  const conditional = req.headers['if-modified-since'] !== undefined || req.headers['if-none-match'] !== undefined
  const headers = endToEndHeaders(req.rawHeaders, DROP_FROM_REQUEST)
  headers.push('host', target.host)

  // undici's raw handler; its typings describe `onBodySent(size, total)` but the runtime passes the
  // chunk (lib/dispatcher/client-h1.js), hence the cast below.
  const handler = {
    onConnect(abort: (reason?: Error) => void) {
      abortUpstream = abort
      if (done) abort(new ClientGoneError())
    },
    onBodySent(chunk: Buffer | string) {
      observer.onRequestBody?.(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
    },
    onRequestSent() {
      requestSent = performance.now()
    },
    onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string) {
      if (status < 200) return true // 1xx: node answers `Expect` itself; others are not forwarded
      responseStart = performance.now()
      const raw = rawHeaders.map((value) => value.toString('latin1'))
      const head: ResponseHead = { status, statusText, rawHeaders: raw }
      observer.onResponseHead?.(head)
      if (done) return false
      res.writeHead(status, statusText === '' ? undefined : statusText, endToEndHeaders(raw))
      res.on('drain', resume)
      return true
    },
    onData(chunk: Buffer) {
      observer.onResponseBody?.(chunk)
      if (done) return false
      return res.write(chunk)
    },
    onComplete() {
      if (done) return
      res.end(() => finish())
    },
    onError(err: Error) {
      if (done) return
      const [code, message] = describeUpstreamError(err)
      fail(code, message)
    },
  }
  try {
    pool.dispatch(
      {
        path: upstreamPath,
        method: req.method ?? 'GET',
        headers,
        body: hasBody ? req : null,
        // A bodiless answer (HEAD, 304) followed by stray bytes must not poison the next exchange:
        // such sockets are not reused.
        reset: req.method === 'HEAD' || conditional ? true : undefined,
      },
      handler as unknown as Dispatcher.DispatchHandler,
    )
  } catch (err) {
    fail('E_TRANSPORT', `could not forward the request: ${(err as Error).message}`)
  }
}

class ClientGoneError extends Error {
  override name = 'ClientGoneError'
  constructor() {
    super('client went away')
  }
}

/** Maps a transport error to our code and a plain-text reason (no header values, so no token). */
function describeUpstreamError(err: Error): [ExchangeErrorCode, string] {
  if (err instanceof ClientGoneError) return ['E_CLIENT_ABORTED', 'the client closed the connection']
  const { failure, code } = classifyTransportError(err)
  switch (failure) {
    case 'connect':
      return ['E_CONNECT', `upstream unreachable (${code})`]
    case 'tls':
      return ['E_CONNECT', `upstream TLS handshake failed (${code}); --insecure accepts a self-signed certificate`]
    case 'timeout':
      return ['E_TIMEOUT', `upstream too slow (${code})`]
    case 'reset':
      return ['E_UPSTREAM_RESET', `upstream closed the connection (${code})`]
    case 'invalid-response':
      return ['E_UPSTREAM_RESET', `upstream response is not valid HTTP/1.1 (${code})`]
  }
  return ['E_TRANSPORT', `upstream request failed (${code ?? err.name})`]
}
