/**
 * The recording thread's work per exchange, without the network: exchanges as the proxy captures
 * them, appended to a ring and recorded by the recording thread's own step (proxy/recording/ring-recording.ts:
 * decoded, validated, redacted and written, or, for an exchange made again, its line rebuilt from the
 * first one's) in this process, one after the other. Two figures: every exchange new (its request
 * carries a header of its own), and every exchange the same page polled again (the proxy bench's
 * traffic). CPU time per exchange, the least of several rounds: other work on the machine can only add
 * to a round, so the least is the figure closest to the work itself, and it stays comparable from run
 * to run when throughput ratios on a shared machine do not.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openExchangeLog } from '../../proxy/recording/exchange-log.js'
import { createRingMemory, RingReader, RingWriter } from '../../proxy/recording/exchange-ring.js'
import { ObservedRelations } from '../../proxy/analyze/relations/observed-relations.js'
import { emptyStats } from '../../proxy/recording/process-exchange.js'
import type { CapturedExchange } from '../../proxy/recording/recorder.js'
import { SecretScrubber } from '../../proxy/recording/redaction.js'
import { RingRecording } from '../../proxy/recording/ring-recording.js'

/** How the recording thread writes: one append per this many exchanges (pipeline-worker.ts). */
const EXCHANGES_PER_WRITE = 64

export interface RecordingWorkOptions {
  readonly target: URL
  /** A new captured exchange (its own buffers, as the forwarding thread hands them over). */
  readonly exchange: (id: number) => CapturedExchange
  readonly rounds?: number
  readonly perRound?: number
}

/** Microseconds of CPU (all threads of this process) per exchange: the least round, and every round. */
export interface RecordingWork {
  readonly micros: number
  readonly rounds: readonly number[]
}

/** The work per exchange when every exchange is new, and when every exchange is made again. */
export async function measureRecordingWork(
  options: RecordingWorkOptions,
): Promise<{ readonly distinct: RecordingWork; readonly repeated: RecordingWork }> {
  const distinct = await measure(options, (id) => {
    const { startedAt, method, clientPath, upstreamPath, httpVersion, requestHeaders, requestBody, response, times } =
      options.exchange(id)
    // Written out, not spread: a spread object gets a hidden class of its own, which the proxy's never do.
    return {
      id,
      startedAt,
      method,
      clientPath,
      upstreamPath,
      httpVersion,
      requestHeaders: [...requestHeaders, 'x-request-id', String(id)],
      requestBody,
      response,
      times,
    }
  })
  const repeated = await measure(options, options.exchange)
  return { distinct, repeated }
}

async function measure(
  options: RecordingWorkOptions,
  exchange: (id: number) => CapturedExchange,
): Promise<RecordingWork> {
  const dir = mkdtempSync(join(tmpdir(), 'fitconform-recording-work-'))
  const redactor = new SecretScrubber()
  const log = openExchangeLog({ file: join(dir, 'work.ndjson') })
  const stats = emptyStats()
  // The session's relations too, as the recording thread judges each exchange against earlier ones (pipeline-worker.ts).
  const relations = new ObservedRelations()
  const processOptions = {
    target: options.target,
    redactor,
    log,
    strict: false,
    relations,
    maxBodyBytes: 1024 * 1024,
    quiet: true,
    print: () => {},
    printProblem: () => {},
  }
  const memory = createRingMemory(8 * 1024 * 1024)
  const writer = new RingWriter(memory)
  const recording = new RingRecording(new RingReader(memory))
  let id = 0
  const round = async (count: number): Promise<number> => {
    const before = process.cpuUsage()
    for (let i = 1; i <= count; i += 1) {
      if (!writer.tryAppend(exchange(++id)))
        throw new Error('the ring is full: the bench reads every exchange it appends')
      await recording.recordNext(processOptions, stats)
      if (i % EXCHANGES_PER_WRITE === 0) log.flush()
    }
    log.flush()
    const spent = process.cpuUsage(before)
    return (spent.user + spent.system) / count
  }
  try {
    const perRound = options.perRound ?? 2000
    await round(perRound) // JIT warm-up
    const rounds: number[] = []
    for (let i = 0; i < (options.rounds ?? 9); i += 1) rounds.push(Math.round(10 * (await round(perRound))) / 10)
    if (stats.unrecorded > 0)
      throw new Error(`${stats.unrecorded} exchange(s) could not be recorded while measuring the recording work`)
    return { micros: Math.min(...rounds), rounds }
  } finally {
    log.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
