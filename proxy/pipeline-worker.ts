/**
 * The recording thread, started by exchange-pipeline.ts: decodes, analyzes, redacts and writes the
 * exchanges the forwarding thread captured, in the order they completed, so that validating a large
 * body never holds up a client. Exchanges are written as soon as they are processed, up to
 * EXCHANGES_PER_WRITE with one append, and only then acknowledged, with the lines to print and the
 * running totals.
 *
 *   forwarding thread ── { exchanges: [...] } ──► here ── processExchange ──► log.flush()
 *                     ◄── { processed, bytes, printed, stats } ──
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openExchangeLog, type ExchangeLog, type FlushResult } from './exchange-log.js'
import { emptyStats, processExchange, type PipelineStats } from './process-exchange.js'
import { capturedBytes, type CapturedBody, type CapturedExchange } from './recorder.js'
import { Redactor, type RedactionSettings } from './redaction.js'

export interface PipelineWorkerData {
  readonly target: string
  readonly redaction: RedactionSettings
  readonly record?: string
  readonly maxBytes?: number
  readonly strict: boolean
  readonly maxBodyBytes: number
  /** Keep only the finding lines (they are indented), not the line per exchange. */
  readonly quiet: boolean
}

/** A captured exchange as it crosses threads: its Buffers arrive as plain Uint8Arrays. */
export type WireExchange = CapturedExchange

export type ToWorker = { readonly type: 'exchanges'; readonly exchanges: readonly WireExchange[] } | { readonly type: 'close' }

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  | {
      readonly type: 'processed'
      readonly count: number
      readonly bytes: number
      readonly printed: readonly string[]
      /** Lines about the recording itself going wrong (shown even with `--quiet`). */
      readonly problems: readonly string[]
      readonly stats: PipelineStats
    }

/** Exchanges processed, at most, before their lines are written and acknowledged. */
const EXCHANGES_PER_WRITE = 64

if (parentPort !== null) startWorker(parentPort, workerData as PipelineWorkerData)

function startWorker(port: NonNullable<typeof parentPort>, data: PipelineWorkerData): void {
  const post = (message: FromWorker): void => port.postMessage(message)
  const redactor = Redactor.fromSettings(data.redaction)
  let log: ExchangeLog | undefined
  try {
    log = data.record === undefined ? undefined : openExchangeLog({ file: data.record, maxBytes: data.maxBytes, redactor })
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message })
    port.close()
    return
  }
  const stats = emptyStats()
  const target = new URL(data.target)
  const queue: CapturedExchange[] = []
  let running = false
  let closing = false

  // The write problem last reported: a full disk is said once (with its cause), and again when it changes or clears.
  let reported: string | undefined
  const noteWrite = (result: FlushResult | undefined, problems: string[]): void => {
    if (result === undefined || data.record === undefined) return
    stats.unrecorded += result.lost
    if (result.problem !== undefined && result.problem !== reported) {
      problems.push(
        `error: cannot write the recording ${data.record} (${result.problem}): ${result.lost} exchange(s) not recorded; forwarding goes on, ` +
          'lost exchanges are counted and make the exit code 1',
      )
    } else if (result.problem === undefined && reported !== undefined && result.written > 0) {
      problems.push(`recording to ${data.record} works again (${stats.unrecorded} exchange(s) not recorded so far)`)
    }
    if (result.problem !== undefined || result.written > 0) reported = result.problem
  }

  const run = async (): Promise<void> => {
    if (running) return
    running = true
    while (queue.length > 0) {
      const batch = queue.splice(0, EXCHANGES_PER_WRITE)
      const printed: string[] = []
      const problems: string[] = []
      const options = {
        target,
        redactor,
        log,
        strict: data.strict,
        maxBodyBytes: data.maxBodyBytes,
        print: (line: string) => {
          if (!data.quiet || line.startsWith('    ')) printed.push(line)
        },
        printProblem: (line: string) => problems.push(line),
      }
      let bytes = 0
      for (const exchange of batch) {
        await processExchange(exchange, options, stats)
        bytes += capturedBytes(exchange)
      }
      noteWrite(log?.flush(), problems)
      post({ type: 'processed', count: batch.length, bytes, printed, problems, stats })
    }
    running = false
    if (closing) {
      noteWrite(log?.close(), [])
      port.close() // the thread ends: the forwarding thread waits for that
    }
  }

  port.on('message', (message: ToWorker) => {
    if (message.type === 'exchanges') queue.push(...message.exchanges.map(fromWire))
    else closing = true
    void run()
  })
  post({ type: 'ready' })
}

function fromWire(exchange: WireExchange): CapturedExchange {
  const response = exchange.response
  return {
    ...exchange,
    requestBody: bodyFromWire(exchange.requestBody),
    response: response === undefined ? undefined : { ...response, body: bodyFromWire(response.body) },
  }
}

function bodyFromWire(body: CapturedBody): CapturedBody {
  const bytes: Uint8Array = body.bytes
  return { ...body, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
}
