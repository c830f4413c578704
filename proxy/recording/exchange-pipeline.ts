/**
 * What happens to an exchange once the client has its response (decode, analyze, redact, write,
 * print) runs on a thread of its own (pipeline-worker.ts): the forwarding thread only hands the
 * captured bytes over, so validation cannot delay a client, and a second core can do the recording.
 *
 * Each exchange is appended to a ring in shared memory as soon as it completes (exchange-ring.ts);
 * no message crosses per exchange. When the recording thread falls behind and more than half the ring
 * is waiting, `waitForRoom` tells the proxy to hold new requests back until it has caught up; an
 * exchange already under way that completes while the ring is full waits here, in order, for room.
 * Recording is never dropped, and memory stays bounded (the ring, plus the requests let in before it
 * filled).
 */
import { once } from 'node:events'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { createRingMemory, ringBytesFor, RingWriter } from './exchange-ring.js'
import type { FromWorker, PipelineWorkerData, ToWorker } from './pipeline-worker.js'
import { emptyStats, type PipelineStats } from './process-exchange.js'
import type { CapturedExchange } from './recorder.js'
import type { SecretScrubber } from './redaction.js'
import { problemText } from './recording-problems.js'
import type { ProxySettings } from '../forward/proxy-settings.js'

export type { PipelineStats } from './process-exchange.js'

export interface PipelineOptions {
  /** Handed whole to the recording thread, which reads its target and `recording` part. */
  readonly settings: ProxySettings
  readonly redactor: SecretScrubber
  /** Live output: the lines of one batch, joined by newlines (no final one); already redacted. */
  readonly print: (lines: string) => void
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

/**
 * A sleeping recording thread is woken this long after the first exchange it has not seen, not at
 * each: waking a thread costs both threads more than recording a small exchange (docs/benchmarks.md).
 * It is as long as live findings lag.
 */
const WAKE_DELAY_MS = 2

// Compiled, the worker is dist/proxy/recording/pipeline-worker.js; in the CLI's bundle, dist/cli/pipeline-worker.cjs
// (scripts/bundle-cli.mjs); run from the TypeScript sources (the tests), it is the .ts file, which
// test/helpers/register-typescript.js teaches Node to load.
const WORKER_FILE = new URL(`./pipeline-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url)

/** Starts the recording thread; rejects when the recording file cannot be opened. */
export async function createExchangePipeline(options: PipelineOptions): Promise<ExchangePipeline> {
  const data: PipelineWorkerData = {
    settings: options.settings,
    redaction: options.redactor.settings(),
    ring: createRingMemory(ringBytesFor(options.settings.recording.maxBodyBytes)),
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
  return new WorkerPipeline(worker, new RingWriter(data.ring), options)
}

class WorkerPipeline implements ExchangePipeline {
  readonly #worker: Worker
  readonly #ring: RingWriter
  readonly #print: (lines: string) => void
  readonly #printProblem: (line: string) => void
  readonly #recording: boolean
  /** The totals the recording thread last sent, and what was lost here (the thread gone, an exchange too large for the ring). */
  #reported = emptyStats()
  readonly #lost = { exchanges: 0, failed: 0, unrecorded: 0 }
  /** Exchanges that completed while the ring was full, oldest first. */
  #held: CapturedExchange[] = []
  #submitted = 0
  #done = 0
  #stopped = false
  #roomWaiters: (() => void)[] = []
  #drainWaiters: (() => void)[] = []
  #closing: Promise<void> | undefined
  #wakeTimer: NodeJS.Timeout | undefined

  constructor(worker: Worker, ring: RingWriter, options: PipelineOptions) {
    this.#worker = worker
    this.#ring = ring
    this.#print = options.print
    this.#printProblem = options.printProblem
    this.#recording = options.settings.recording.file !== undefined
    worker.on('message', (message: FromWorker) => this.#onMessage(message))
    worker.on('error', (err) => {
      // Only the name: the message of an error deep in the recording could quote a body.
      this.#stop(
        `internal error in the recording thread (${err.name}): exchanges from here on are forwarded but not recorded`,
      )
    })
    worker.on('exit', () =>
      this.#stop('the recording thread stopped: exchanges from here on are forwarded but not recorded'),
    )
  }

  get stats(): PipelineStats {
    const reported = this.#reported
    return {
      exchanges: reported.exchanges + this.#lost.exchanges,
      failed: reported.failed + this.#lost.failed,
      unrecorded: reported.unrecorded + this.#lost.unrecorded,
      findings: { ...reported.findings },
    }
  }

  submit(exchange: CapturedExchange): void {
    if (this.#stopped) {
      this.#countLost(1, exchange.error !== undefined)
      return
    }
    if (!this.#ring.fitsEver(exchange)) {
      // Cannot happen within node's header limits (the ring holds two of the largest exchanges): said, counted.
      this.#printProblem(
        problemText({
          code: 'E_UNRECORDABLE',
          kind: 'internal',
          message: `#${exchange.id} is too large to hand to the recording thread: forwarded but not recorded`,
          hint: 'a bug of fitconform, please report it (with the --max-body-bytes used)',
        }),
      )
      this.#countLost(1, exchange.error !== undefined)
      return
    }
    this.#submitted += 1
    if (this.#held.length > 0 || !this.#ring.tryAppend(exchange)) {
      this.#held.push(exchange)
      this.#ring.want()
    } else if (this.#wakeTimer === undefined && this.#ring.readerSleeps()) {
      this.#wakeTimer = setTimeout(() => {
        this.#wakeTimer = undefined
        this.#ring.wake()
      }, WAKE_DELAY_MS)
    }
  }

  waitForRoom(): Promise<void> | undefined {
    if (this.#hasRoom()) return undefined
    this.#ring.want()
    return new Promise((resolve) => this.#roomWaiters.push(resolve))
  }

  drain(): Promise<void> {
    if (this.#drained()) return Promise.resolve()
    this.#ring.want()
    return new Promise((resolve) => this.#drainWaiters.push(resolve))
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Requests held back for room may still complete (cut) while draining: drain until none is left.
      while (!this.#drained()) await this.drain()
      if (this.#stopped) return
      const exited = once(this.#worker, 'exit')
      this.#post({ type: 'close' })
      await exited
    })()
    return this.#closing
  }

  /** Requests go on while at least half the ring is free and nothing is held. */
  #hasRoom(): boolean {
    return this.#stopped || (this.#held.length === 0 && this.#ring.free() >= this.#ring.capacity / 2)
  }

  #drained(): boolean {
    return this.#stopped || (this.#held.length === 0 && this.#done === this.#submitted)
  }

  #post(message: ToWorker): void {
    this.#worker.postMessage(message)
  }

  #onMessage(message: FromWorker): void {
    if (message.type !== 'processed') return
    this.#done = message.done
    this.#reported = message.stats
    for (const line of message.problems) this.#printProblem(line)
    // One write for the whole batch: a line per exchange, each its own write, costs the forwarding thread.
    if (message.printed.length > 0) this.#print(message.printed.join('\n'))
    while (this.#held.length > 0 && this.#ring.tryAppend(this.#held[0] as CapturedExchange)) this.#held.shift()
    this.#settle()
  }

  #settle(): void {
    if (this.#hasRoom()) for (const resolve of this.#roomWaiters.splice(0)) resolve()
    if (this.#drained()) for (const resolve of this.#drainWaiters.splice(0)) resolve()
    // Still waiting: ask the recording thread to say when it has done more.
    if (!this.#stopped && (this.#roomWaiters.length > 0 || this.#drainWaiters.length > 0 || this.#held.length > 0))
      this.#ring.want()
  }

  #countLost(count: number, failed: boolean): void {
    this.#lost.exchanges += count
    if (failed) this.#lost.failed += count
    if (this.#recording) this.#lost.unrecorded += count
  }

  #stop(reason: string): void {
    if (this.#stopped) return
    this.#stopped = true
    const unacknowledged = this.#submitted - this.#done
    if (this.#closing === undefined || unacknowledged > 0)
      this.#printProblem(
        problemText({
          code: 'E_RECORDING_THREAD',
          kind: 'internal',
          message: reason,
          hint: 'a bug of fitconform, please report it; restart the proxy to record again',
        }),
      )
    // What the thread had not acknowledged is lost with it: counted, so that the exit code says so.
    this.#countLost(unacknowledged, false)
    this.#held = []
    this.#settle()
  }
}
