/**
 * What happens to an exchange once the client has its response (decode, analyze, redact, write,
 * print) runs on a thread of its own (pipeline-worker.ts): the forwarding thread only hands the
 * captured bytes over, so validation cannot delay a client, and a second core can do the recording.
 *
 * The exchanges that complete within a few milliseconds go over in one message, their body buffers
 * moved, not copied. When the recording thread falls behind (more than MAX_PENDING exchanges
 * or MAX_PENDING_BYTES of bodies not yet written), `waitForRoom` tells the proxy to hold new
 * requests back until it has caught up: recording is never dropped, and memory stays bounded.
 */
import { once } from 'node:events'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { FromWorker, PipelineWorkerData, ToWorker, WireExchange } from './pipeline-worker.js'
import { emptyStats, type PipelineStats } from './process-exchange.js'
import { capturedBytes, type CapturedExchange } from './recorder.js'
import type { Redactor } from './redaction.js'

export type { PipelineStats } from './process-exchange.js'

export interface PipelineOptions {
  readonly target: URL
  readonly redactor: Redactor
  /** NDJSON recording file; nothing is written without it. */
  readonly record?: string
  readonly maxBytes?: number
  readonly strict: boolean
  readonly maxBodyBytes: number
  /** Live output: the lines of one batch, joined by newlines (no final one); already redacted. */
  readonly print: (lines: string) => void
  /** Only finding lines are printed, not one line per exchange (`--quiet`). */
  readonly quiet: boolean
  /** A line about recording itself going wrong (a write error, the recording thread gone): always shown. */
  readonly printProblem: (line: string) => void
}

export interface ExchangePipeline {
  submit(exchange: CapturedExchange): void
  /** Undefined while the recording thread keeps up; otherwise resolves once it has caught up. */
  waitForRoom(): Promise<void> | undefined
  /** Resolves once every submitted exchange is written and printed. */
  drain(): Promise<void>
  /** Drains, then closes the recording and ends the thread. */
  close(): Promise<void>
  readonly stats: PipelineStats
}

const MAX_PENDING = 256
const MAX_PENDING_BYTES = 8 * 1024 * 1024
/**
 * A message to the recording thread costs about as much as recording a small exchange: exchanges are
 * gathered for up to BATCH_DELAY_MS (or MAX_BATCH of them) and sent together. That is also as long as
 * a completed exchange waits before the recording thread has it.
 */
const BATCH_DELAY_MS = 2
const MAX_BATCH = 256

// Compiled, the worker is dist/proxy/pipeline-worker.js; run from the TypeScript sources (the tests),
// it is the .ts file, which test/helpers/register-typescript.js teaches Node to load.
const WORKER_FILE = new URL(`./pipeline-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url)

/** Starts the recording thread; rejects when the recording file cannot be opened. */
export async function createExchangePipeline(options: PipelineOptions): Promise<ExchangePipeline> {
  const data: PipelineWorkerData = {
    target: options.target.href,
    redaction: options.redactor.settings(),
    record: options.record,
    maxBytes: options.maxBytes,
    strict: options.strict,
    maxBodyBytes: options.maxBodyBytes,
    quiet: options.quiet,
  }
  const worker = new Worker(WORKER_FILE, { workerData: data })
  const first = await new Promise<FromWorker>((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', (message: FromWorker) => {
      worker.off('error', reject)
      resolve(message)
    })
  })
  if (first.type !== 'ready') {
    await once(worker, 'exit')
    throw new Error(first.type === 'failed' ? first.message : `the recording thread did not start (${first.type})`)
  }
  return new WorkerPipeline(worker, options)
}

class WorkerPipeline implements ExchangePipeline {
  readonly stats = emptyStats()
  readonly #worker: Worker
  readonly #print: (lines: string) => void
  readonly #printProblem: (line: string) => void
  readonly #recording: boolean
  #batch: WireExchange[] = []
  #transfer: ArrayBuffer[] = []
  #pending = 0
  #pendingBytes = 0
  #stopped = false
  #roomWaiters: (() => void)[] = []
  #drainWaiters: (() => void)[] = []
  #closing: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined

  constructor(worker: Worker, options: PipelineOptions) {
    this.#worker = worker
    this.#print = options.print
    this.#printProblem = options.printProblem
    this.#recording = options.record !== undefined
    worker.on('message', (message: FromWorker) => this.#onMessage(message))
    worker.on('error', (err) => {
      // Only the name: the message of an error deep in the recording could quote a body.
      this.#stop(`internal error in the recording thread (${err.name}): exchanges from here on are forwarded but not recorded`)
    })
    worker.on('exit', () => this.#stop('the recording thread stopped: exchanges from here on are forwarded but not recorded'))
  }

  submit(exchange: CapturedExchange): void {
    if (this.#stopped) {
      this.#countLost(1, exchange.error !== undefined)
      return
    }
    this.#batch.push(exchange)
    for (const body of [exchange.requestBody, exchange.response?.body]) {
      const buffer = body?.bytes.buffer
      // Only a buffer the body owns whole can be moved (recorder.ts allocates it so).
      if (buffer instanceof ArrayBuffer && buffer.byteLength > 0 && buffer.byteLength === body?.bytes.byteLength) this.#transfer.push(buffer)
    }
    this.#pending += 1
    this.#pendingBytes += capturedBytes(exchange)
    if (this.#batch.length === 1) this.#timer = setTimeout(() => this.#send(), BATCH_DELAY_MS)
    else if (this.#batch.length >= MAX_BATCH) this.#send()
  }

  waitForRoom(): Promise<void> | undefined {
    if (!this.#isFull()) return undefined
    return new Promise((resolve) => this.#roomWaiters.push(resolve))
  }

  drain(): Promise<void> {
    this.#send()
    if (this.#pending === 0) return Promise.resolve()
    return new Promise((resolve) => this.#drainWaiters.push(resolve))
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Requests held back for room may still complete (cut) while draining: drain until none is left.
      while (this.#pending > 0 || this.#batch.length > 0) await this.drain()
      if (this.#stopped) return
      const exited = once(this.#worker, 'exit')
      this.#post({ type: 'close' })
      await exited
    })()
    return this.#closing
  }

  #isFull(): boolean {
    return !this.#stopped && (this.#pending > MAX_PENDING || this.#pendingBytes > MAX_PENDING_BYTES)
  }

  #send(): void {
    clearTimeout(this.#timer)
    if (this.#batch.length === 0 || this.#stopped) return
    this.#post({ type: 'exchanges', exchanges: this.#batch }, this.#transfer)
    this.#batch = []
    this.#transfer = []
  }

  #post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(message, transfer)
  }

  #onMessage(message: FromWorker): void {
    if (message.type !== 'processed') return
    this.#pending -= message.count
    this.#pendingBytes -= message.bytes
    for (const line of message.problems) this.#printProblem(line)
    // One write for the whole batch: a line per exchange, each its own write, costs the forwarding thread.
    if (message.printed.length > 0) this.#print(message.printed.join('\n'))
    Object.assign(this.stats, { exchanges: message.stats.exchanges, failed: message.stats.failed, unrecorded: message.stats.unrecorded })
    Object.assign(this.stats.findings, message.stats.findings)
    this.#settle()
  }

  #settle(): void {
    // Room again once half the backlog is written, so that held requests go on in a burst, not one by one.
    if (this.#stopped || (this.#pending <= MAX_PENDING / 2 && this.#pendingBytes <= MAX_PENDING_BYTES / 2)) {
      for (const resolve of this.#roomWaiters.splice(0)) resolve()
    }
    if (this.#stopped || this.#pending === 0) {
      for (const resolve of this.#drainWaiters.splice(0)) resolve()
    }
  }

  #countLost(count: number, failed: boolean): void {
    this.stats.exchanges += count
    if (failed) this.stats.failed += count
    if (this.#recording) this.stats.unrecorded += count
  }

  #stop(reason: string): void {
    if (this.#stopped) return
    this.#stopped = true
    if (this.#closing === undefined || this.#pending > 0) this.#printProblem(`error: ${reason}`)
    // What the thread had not acknowledged is lost with it: counted, so that the exit code says so.
    this.#countLost(this.#pending, false)
    this.#batch = []
    this.#transfer = []
    this.#pending = 0
    this.#pendingBytes = 0
    this.#settle()
  }
}
