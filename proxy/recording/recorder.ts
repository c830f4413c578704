/**
 * The recorder only records (STYLE §2.12): it taps one exchange as the forwarder streams it and keeps
 * its head and the first `maxBodyBytes` of each body. No judgement, no redaction, no I/O: the capture
 * stays in memory until the exchange is over, then is appended to the exchange pipeline's ring.
 */
import type { IncomingMessage } from 'node:http'
import type { ExchangeError } from '../../src/model/exchange.js'
import type { ForwardObserver, ForwardOutcome, ForwardTimes, ResponseHead } from '../forward/forwarder.js'
import { rawHeaderValues } from '../../src/shared/headers.js'
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
  // Made by the first chunk: most requests have no body (and node's `req.headers` is then never built).
  let requestBody: BodyTap | undefined
  let head: ResponseHead | undefined
  let responseBody: BodyTap | undefined
  return {
    onRequestBody: (chunk) =>
      (requestBody ??= new BodyTap(options.maxBodyBytes, req.headers['content-length'])).add(chunk),
    onResponseHead: (responseHead) => {
      head = responseHead
      responseBody = new BodyTap(options.maxBodyBytes, rawHeaderValues(responseHead.rawHeaders, 'content-length')[0])
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

/** Keeps the first `cap` bytes of a stream and counts the rest. */
class BodyTap {
  readonly #cap: number
  /** Content-Length (capped), when declared: the bytes are then copied once, straight into place. */
  readonly #declared: number | undefined
  #whole: Buffer | undefined
  #inWhole = 0
  /** What did not fit the declared length, and everything after it, in order. */
  readonly #chunks: Buffer[] = []
  #kept = 0
  #size = 0

  constructor(cap: number, contentLength?: string) {
    this.#cap = cap
    const declared = Number(contentLength)
    if (contentLength !== undefined && Number.isSafeInteger(declared) && declared > 0)
      this.#declared = Math.min(declared, cap)
  }

  add(chunk: Buffer): void {
    this.#size += chunk.length
    const room = this.#cap - this.#kept
    if (room <= 0) return
    const take = Math.min(chunk.length, room)
    this.#kept += take
    // Copy: the forwarder's buffers may be reused once written.
    if (this.#declared !== undefined && this.#chunks.length === 0 && this.#inWhole + take <= this.#declared) {
      this.#whole ??= Buffer.allocUnsafe(this.#declared)
      this.#inWhole += chunk.copy(this.#whole, this.#inWhole, 0, take)
    } else {
      this.#chunks.push(Buffer.from(chunk.subarray(0, take)))
    }
  }

  result(): CapturedBody {
    const whole = this.#whole
    const bytes =
      whole !== undefined && this.#chunks.length === 0 && this.#inWhole === whole.length ? whole : this.#joined()
    return { bytes, size: this.#size, truncated: this.#size > this.#kept }
  }

  #joined(): Buffer {
    const bytes = Buffer.allocUnsafe(this.#kept)
    let at = this.#whole?.copy(bytes, 0, 0, this.#inWhole) ?? 0
    for (const chunk of this.#chunks) at += chunk.copy(bytes, at)
    return bytes
  }
}
