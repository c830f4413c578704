/**
 * The proxy core: the only file that knows which HTTP library moves the bytes (STYLE §2.12).
 *
 * Chosen by measurement (bench/proxy-core-comparison.ts): a node:http server hands each request to an
 * undici `Pool` through `dispatch` with a raw handler. Against http-proxy 1.18.1 and http-proxy-3 it
 * keeps upstream connections alive without an extra agent, gives the raw response header list (so
 * repeated `Set-Cookie` stay repeated), streams with backpressure both ways, cancels the upstream
 * request when the client goes away, closes the upstream socket after a HEAD or a 304 (so bytes a
 * broken upstream sends after a bodiless response cannot become the next response), and never adds a
 * `Content-Length: 0` to a DELETE.
 *
 * The forwarder judges nothing: it streams, and tells an observer what went by.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { Pool, type Dispatcher } from 'undici'
import type { ExchangeError, ExchangeErrorCode } from '../../src/model/exchange.js'
import { classifyTransportError } from '../../src/shared/transport-failure.js'
import type { ForwardSettings } from './proxy-settings.js'
import { endToEndHeaders, HAS_BODY, upstreamRequestHead } from './target.js'

/** The proxy's forward settings; `connections` caps the upstream connections (unlimited by default). */
export type ForwarderOptions = ForwardSettings & { readonly connections?: number }

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

/**
 * Taps on one exchange; every method is optional except `onDone`, which is called exactly once. A body
 * chunk is the library's own view of what it read, never written over afterwards: it may be kept.
 */
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

/** Forwards to `target`; a base path of it is put in front of every client path (target.ts). */
export function createForwarder(target: URL, options: ForwarderOptions): Forwarder {
  const timeout = options.timeoutMs
  const pool = new Pool(target.origin, {
    connections: options.connections ?? null,
    pipelining: 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    connect: { rejectUnauthorized: !options.insecure, timeout },
  })
  const host = target.host
  return {
    forward: (request) => {
      new ForwardJob(request).start(pool, host)
    },
    close: async () => {
      await pool.close()
    },
  }
}

/**
 * One exchange on its way: undici's raw handler (undici calls its methods on it) and the response's
 * close listener. A class, not closures: at saturation every allocation per exchange shows.
 *
 * undici's typings describe `onBodySent(size, total)` but the runtime passes the chunk
 * (lib/dispatcher/client-h1.js), hence the cast where it is dispatched.
 */
class ForwardJob {
  readonly #req: IncomingMessage
  readonly #res: ServerResponse
  readonly #upstreamPath: string
  readonly #observer: ForwardObserver
  readonly #start = performance.now()
  #requestSent: number | undefined
  #responseStart: number | undefined
  #abortUpstream: ((reason?: Error) => void) | undefined
  #resume: (() => void) | undefined
  /** A 304 came: its head is the whole response, and the upstream socket is being closed (onHeaders). */
  #bodilessEnd = false
  #done = false

  constructor(request: ForwardRequest) {
    this.#req = request.req
    this.#res = request.res
    this.#upstreamPath = request.upstreamPath
    this.#observer = request.observer
  }

  start(pool: Pool, host: string): void {
    const req = this.#req
    const res = this.#res
    if (res.destroyed) {
      // Gone while the request was held back (the recording thread catching up): nothing to forward.
      this.#fail('E_CLIENT_ABORTED', 'the client closed the connection before the request was forwarded')
      return
    }
    res.on('close', () => {
      if (res.writableFinished || this.#done) return
      this.#abortUpstream?.(new ClientGoneError())
      this.#fail('E_CLIENT_ABORTED', 'the client closed the connection before the exchange completed')
    })
    const { headers, flags } = upstreamRequestHead(req.rawHeaders, host)
    try {
      pool.dispatch(
        {
          path: this.#upstreamPath,
          method: req.method ?? 'GET',
          headers,
          body: (flags & HAS_BODY) !== 0 ? req : null,
          // A bodiless answer followed by stray bytes must not poison the next exchange: such sockets
          // are not reused. A HEAD's is known now; a 304 only once it comes (onHeaders).
          reset: req.method === 'HEAD' ? true : undefined,
        },
        this as unknown as Dispatcher.DispatchHandler,
      )
    } catch (err) {
      this.#fail('E_TRANSPORT', `could not forward the request: ${(err as Error).message}`)
    }
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.#abortUpstream = abort
    if (this.#done) abort(new ClientGoneError())
  }

  onBodySent(chunk: Buffer | string): void {
    this.#observer.onRequestBody?.(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  }

  onRequestSent(): void {
    this.#requestSent = performance.now()
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    if (status < 200) return true // 1xx: node answers `Expect` itself; others are not forwarded
    this.#responseStart = performance.now()
    const raw = new Array<string>(rawHeaders.length)
    for (let i = 0; i < rawHeaders.length; i += 1) raw[i] = (rawHeaders[i] as Buffer).toString('latin1')
    const head: ResponseHead = { status, statusText, rawHeaders: raw }
    this.#observer.onResponseHead?.(head)
    if (this.#done) return false
    this.#res.writeHead(status, statusText === '' ? undefined : statusText, endToEndHeaders(raw))
    this.#resume = resume
    if (status === 304 && this.#abortUpstream !== undefined) {
      // The socket goes with the request (undici has no way to say "do not reuse" after dispatch);
      // onError ends the exchange as complete. A conditional read answered 200 keeps its socket.
      this.#bodilessEnd = true
      // undici closes the socket with an error of its own, whose stack node's stream reads: made
      // without frames, it is not walked and formatted for nothing.
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 0
      try {
        this.#abortUpstream(BODILESS_END)
      } finally {
        Error.stackTraceLimit = limit
      }
      return false
    }
    return true
  }

  onData(chunk: Buffer): boolean {
    this.#observer.onResponseBody?.(chunk)
    if (this.#done) return false
    if (this.#res.write(chunk)) return true
    // Backpressure: undici holds the upstream until the client has taken what was written.
    if (this.#resume !== undefined) this.#res.once('drain', this.#resume)
    return false
  }

  onComplete(): void {
    if (this.#done) return
    this.#res.end(() => this.#finish())
  }

  onError(err: Error): void {
    if (this.#done) return
    if (this.#bodilessEnd) {
      this.#res.end(() => this.#finish())
      return
    }
    const [code, message] = describeUpstreamError(err)
    this.#fail(code, message)
  }

  #finish(extra: Pick<ForwardOutcome, 'error' | 'generated'> = {}): void {
    if (this.#done) return
    this.#done = true
    const times: ForwardTimes = {
      start: this.#start,
      requestSent: this.#requestSent,
      responseStart: this.#responseStart,
      end: performance.now(),
    }
    // Every member written out, none spread in: a spread gives each outcome a shape of its own (measured).
    this.#observer.onDone({ times, upstreamPath: this.#upstreamPath, error: extra.error, generated: extra.generated })
  }

  #fail(code: ExchangeErrorCode, message: string): void {
    const res = this.#res
    const afterResponseStart = res.headersSent
    const error: ExchangeError = { code, message, afterResponseStart }
    if (afterResponseStart || res.destroyed || code === 'E_CLIENT_ABORTED') {
      // The status line is gone already: the only honest signal left is a cut connection.
      res.destroy()
      this.#finish({ error })
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
    this.#finish({ error, generated: { status, statusText, body } })
  }
}

/** Why a socket is closed after a 304: never reported (onError ends the exchange as complete); made once. */
const BODILESS_END = new Error('the upstream socket is not reused after a 304')

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
