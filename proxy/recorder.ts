/**
 * The recorder only records (STYLE §2.12): it taps one exchange as the forwarder streams it and keeps
 * its head and the first `maxBodyBytes` of each body. No judgement, no redaction, no I/O: the capture
 * stays in memory until the exchange is over, then goes to the exchange pipeline.
 */
import type { IncomingMessage } from 'node:http'
import type { ExchangeError } from '../src/model/exchange.js'
import type { ForwardObserver, ForwardOutcome, ForwardTimes, ResponseHead } from './forwarder.js'

/** The first bytes of a body and its full length. */
export interface CapturedBody {
  readonly bytes: Buffer
  /** Total length as it went by (before any Content-Encoding is undone). */
  readonly size: number
  readonly truncated: boolean
}

/** One exchange as it went through the proxy, unredacted: never written as it is. */
export interface CapturedExchange {
  readonly id: number
  readonly startedAt: Date
  readonly method: string
  /** Path and query the client asked the proxy for. */
  readonly clientPath: string
  /** Path and query sent upstream (base path of the target in front). */
  readonly upstreamPath: string
  readonly httpVersion: string
  readonly requestHeaders: readonly string[]
  readonly requestBody: CapturedBody
  readonly response?: ResponseHead & { readonly body: CapturedBody }
  readonly generated?: ForwardOutcome['generated']
  readonly error?: ExchangeError
  readonly times: ForwardTimes
}

export interface RecorderOptions {
  readonly maxBodyBytes: number
}

/** Taps one exchange; `onCaptured` receives it once the exchange is over. */
export function captureExchange(
  req: IncomingMessage,
  options: RecorderOptions & { readonly id: number; readonly onCaptured: (exchange: CapturedExchange) => void },
): ForwardObserver {
  const startedAt = new Date()
  const requestBody = new BodyTap(options.maxBodyBytes)
  let head: ResponseHead | undefined
  let responseBody: BodyTap | undefined
  return {
    onRequestBody: (chunk) => requestBody.add(chunk),
    onResponseHead: (responseHead) => {
      head = responseHead
      responseBody = new BodyTap(options.maxBodyBytes)
    },
    onResponseBody: (chunk) => responseBody?.add(chunk),
    onDone: (outcome) => {
      options.onCaptured({
        id: options.id,
        startedAt,
        method: req.method ?? 'GET',
        clientPath: req.url ?? '/',
        upstreamPath: outcome.upstreamPath,
        httpVersion: `HTTP/${req.httpVersion}`,
        requestHeaders: req.rawHeaders,
        requestBody: requestBody.result(),
        response: head === undefined || responseBody === undefined ? undefined : { ...head, body: responseBody.result() },
        generated: outcome.generated,
        error: outcome.error,
        times: outcome.times,
      })
    },
  }
}

/** Keeps the first `cap` bytes of a stream and counts the rest. */
class BodyTap {
  readonly #cap: number
  readonly #chunks: Buffer[] = []
  #kept = 0
  #size = 0

  constructor(cap: number) {
    this.#cap = cap
  }

  add(chunk: Buffer): void {
    this.#size += chunk.length
    const room = this.#cap - this.#kept
    if (room <= 0) return
    // Copy: the forwarder's buffers may be reused once written.
    const kept = chunk.length <= room ? Buffer.from(chunk) : Buffer.from(chunk.subarray(0, room))
    this.#chunks.push(kept)
    this.#kept += kept.length
  }

  result(): CapturedBody {
    return { bytes: Buffer.concat(this.#chunks, this.#kept), size: this.#size, truncated: this.#size > this.#kept }
  }
}
