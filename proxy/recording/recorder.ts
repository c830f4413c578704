/**
 * The recorder only records (STYLE §2.12): it taps one exchange as the forwarder streams it and keeps
 * its head and the first `maxBodyBytes` of each body. No judgement, no redaction, no I/O: the capture
 * stays in memory until the exchange is over, then is appended to the exchange pipeline's ring.
 */
import type { IncomingMessage } from 'node:http'
import type { ExchangeError } from '../../src/model/exchange.js'
import type { ForwardObserver, ForwardOutcome, ForwardTimes, ResponseHead } from '../forward/forwarder.js'
import type { RecordingSettings } from '../forward/proxy-settings.js'

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

/** The recording settings the recorder reads: how much of each body it keeps. */
export type RecorderOptions = Pick<RecordingSettings, 'maxBodyBytes'>

/** Taps one exchange; `onCaptured` receives it once the exchange is over. */
export function captureExchange(
  req: IncomingMessage,
  options: RecorderOptions & { readonly id: number; readonly onCaptured: (exchange: CapturedExchange) => void },
): ForwardObserver {
  const startedAt = new Date()
  // Made by the first chunk: most requests have no body.
  let requestBody: BodyTap | undefined
  let head: ResponseHead | undefined
  let responseBody: BodyTap | undefined
  return {
    onRequestBody: (chunk) => (requestBody ??= new BodyTap(options.maxBodyBytes)).add(chunk),
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
        requestBody: requestBody?.result() ?? NO_BODY,
        // Written out, not spread: `{ ...head, body }` made a new hidden class for every exchange (measured
        // with perf), and every later read of it slow.
        response:
          head === undefined || responseBody === undefined
            ? undefined
            : {
                status: head.status,
                statusText: head.statusText,
                rawHeaders: head.rawHeaders,
                body: responseBody.result(),
              },
        generated: outcome.generated,
        error: outcome.error,
        times: outcome.times,
      })
    },
  }
}

const NO_BODY: CapturedBody = { bytes: Buffer.alloc(0), size: 0, truncated: false }

/**
 * Keeps the first `cap` bytes of a stream and counts the rest. The chunks are kept as they came, not
 * copied: the forwarder never reuses them (ForwardObserver), and the ring copies them anyway. A body
 * that came in one chunk is never copied here.
 */
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
    const take = Math.min(chunk.length, room)
    this.#kept += take
    this.#chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take))
  }

  result(): CapturedBody {
    const chunks = this.#chunks
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#kept)
    return { bytes, size: this.#size, truncated: this.#size > this.#kept }
  }
}
