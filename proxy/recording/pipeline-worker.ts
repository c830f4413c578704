/**
 * The recording thread, started by exchange-pipeline.ts: decodes, analyzes, redacts and writes the
 * exchanges the forwarding thread captured, in the order they completed, so that validating a large
 * body never holds up a client. It takes them one at a time from the shared ring (exchange-ring.ts),
 * which frees their room as it copies them out, writes up to EXCHANGES_PER_WRITE with one append, and
 * waits on the ring when it is empty. It tells the forwarding thread what it has done (a count, the
 * lines to print, the running totals) only when there is something to print or the forwarding thread
 * asked (it wants room, a drain, or to close): at saturation, in `--quiet`, no message at all.
 *
 * Each step is ring-recording.ts's: an exchange made again is not decoded, validated or redacted again.
 *
 *   forwarding thread ── ring (shared memory) ──► here ── RingRecording.recordNext ──► log.flush()
 *                     ◄── { processed: done, printed, stats } (when asked, or lines to print) ──
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { setTimeout as delay } from 'node:timers/promises'
import { parentPort, workerData } from 'node:worker_threads'
import { openExchangeLog, type ExchangeLog, type FlushResult } from './exchange-log.js'
import { emptyStats, type PipelineStats } from './process-exchange.js'
import { RingReader, type RingMemory } from './exchange-ring.js'
import { RingRecording } from './ring-recording.js'
import { ObservedRelations } from '../analyze/relations/observed-relations.js'
import { SecretScrubber, type RedactionSettings } from './redaction.js'
import { problemText } from './recording-problems.js'
import type { ProxySettings } from '../forward/proxy-settings.js'

export interface PipelineWorkerData {
  /** The command's settings, as built once (proxy-settings.ts): this thread reads the target and `recording`. */
  readonly settings: ProxySettings
  readonly redaction: RedactionSettings
  readonly ring: RingMemory
}

/** Exchanges come through the ring; the one message is the last. */
export type ToWorker = { readonly type: 'close' }

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  | {
      readonly type: 'processed'
      /** Exchanges taken from the ring and written (or counted as not recorded) since the start. */
      readonly done: number
      readonly printed: readonly string[]
      /** Lines about the recording itself going wrong (shown even with `--quiet`). */
      readonly problems: readonly string[]
      readonly stats: PipelineStats
    }

/** Exchanges processed, at most, before their lines are written and acknowledged. */
const EXCHANGES_PER_WRITE = 64
/**
 * Found the ring empty after work, the thread looks again every POLL_MS, up to IDLE_POLLS times, before
 * it sleeps until woken: under load it is never woken, since waking it (`Atomics.notify`) cost the
 * forwarding thread more than the exchanges of a poll (measured: `node --cpu-prof` under load).
 * POLL_MS is also how long live findings lag.
 */
const POLL_MS = 2
const IDLE_POLLS = 25
/**
 * The nice value of this thread (Linux): forwarding first. On 2 cores the load generator, the upstream,
 * the forwarding thread and this one compete; at equal priority this thread took its turns in the middle
 * of exchanges in flight, and every client waited. Measured side by side, same run, load average 2–9:
 * +10 carried 9–30 % more exchanges a second in 5 of 6 rounds, and less CPU an exchange (fewer
 * switches); the work still gets done: it is what the ring's backpressure waits for.
 */
const RECORDING_NICE = 10

if (parentPort !== null) startWorker(parentPort, workerData as PipelineWorkerData)

/** Lowers this thread's priority where the system lets a thread name itself (/proc/thread-self); elsewhere it keeps its own. */
function yieldToForwarding(): void {
  try {
    // "<pid>/task/<tid>": on Linux, a nice value is a thread's own, set through its id.
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), RECORDING_NICE)
  } catch {
    // Not Linux, or not allowed: recording at the forwarding thread's priority is only slower.
  }
}

function startWorker(port: NonNullable<typeof parentPort>, data: PipelineWorkerData): void {
  const post = (message: FromWorker): void => port.postMessage(message)
  yieldToForwarding()
  const { recording: settings } = data.settings
  const redactor = SecretScrubber.fromSettings(data.redaction)
  let log: ExchangeLog | undefined
  try {
    log =
      settings.file === undefined ? undefined : openExchangeLog({ file: settings.file, maxBytes: settings.maxBytes })
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message })
    port.close()
    return
  }
  const stats = emptyStats()
  const target = new URL(data.settings.target)
  const ring = new RingReader(data.ring)
  const recording = new RingRecording(ring)
  let closing = false
  let done = 0
  let idlePolls = 0

  // The write problem last reported: a full disk is said once (with its cause), and again when it changes or clears.
  let reported: string | undefined
  const noteWrite = (result: FlushResult | undefined, problems: string[]): void => {
    if (result === undefined || settings.file === undefined) return
    stats.unrecorded += result.lost
    if (result.problem !== undefined && result.problem !== reported) {
      problems.push(
        problemText({
          code: 'E_RECORDING_WRITE',
          kind: 'error',
          message:
            `cannot write the recording ${settings.file} (${result.problem}): ${result.lost} exchange(s) not recorded; forwarding goes on, ` +
            'lost exchanges are counted and make the exit code 1',
          hint: 'free space on its disk or fix its permissions: recording resumes by itself',
        }),
      )
    } else if (result.problem === undefined && reported !== undefined && result.written > 0) {
      problems.push(`recording to ${settings.file} works again (${stats.unrecorded} exchange(s) not recorded so far)`)
    }
    if (result.problem !== undefined || result.written > 0) reported = result.problem
  }

  const relations = new ObservedRelations()
  const run = async (): Promise<void> => {
    for (;;) {
      const printed: string[] = []
      const problems: string[] = []
      const options = {
        target,
        redactor,
        log,
        strict: settings.strict,
        relations,
        maxBodyBytes: settings.maxBodyBytes,
        quiet: settings.quiet,
        print: (line: string) => printed.push(line),
        printProblem: (line: string) => problems.push(line),
      }
      // One at a time out of the ring: what waits stays there, so memory is the ring's.
      let count = 0
      while (count < EXCHANGES_PER_WRITE) {
        const next = recording.recordNext(options, stats)
        if (!(typeof next === 'boolean' ? next : await next)) break
        count += 1
      }
      if (count > 0) {
        done += count
        noteWrite(log?.flush(), problems)
      }
      if (printed.length > 0 || problems.length > 0 || ring.takeWanted())
        post({ type: 'processed', done, printed, problems, stats })
      if (count > 0) {
        idlePolls = 0
        continue
      }
      if (closing) break
      idlePolls += 1
      if (idlePolls <= IDLE_POLLS) await delay(POLL_MS)
      else await ring.waitForWork()
    }
    noteWrite(log?.close(), [])
    port.close() // the thread ends: the forwarding thread waits for that
  }

  port.on('message', (message: ToWorker) => {
    if (message.type !== 'close') return
    closing = true
    ring.wake()
  })
  post({ type: 'ready' })
  void run()
}
