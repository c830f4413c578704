/**
 * The recording thread's work per exchange, without the network: exchanges as the proxy captures
 * them, decoded, validated, redacted and written (proxy/process-exchange.ts, proxy/exchange-log.ts)
 * in this process, one after the other. CPU time per exchange, the least of several rounds: other
 * work on the machine can only add to a round, so the least is the figure closest to the work itself,
 * and it stays comparable from run to run when throughput ratios on a shared machine do not.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openExchangeLog } from '../../proxy/exchange-log.js'
import { emptyStats, processExchange } from '../../proxy/process-exchange.js'
import type { CapturedExchange } from '../../proxy/recorder.js'
import { Redactor } from '../../proxy/redaction.js'

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
export async function measureRecordingWork(options: RecordingWorkOptions): Promise<{ readonly micros: number; readonly rounds: readonly number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'fitconform-recording-work-'))
  const redactor = new Redactor()
  const log = openExchangeLog({ file: join(dir, 'work.ndjson'), redactor })
  const stats = emptyStats()
  const processOptions = { target: options.target, redactor, log, strict: false, maxBodyBytes: 1024 * 1024, quiet: true, print: () => {}, printProblem: () => {} }
  let id = 0
  const round = async (count: number): Promise<number> => {
    const before = process.cpuUsage()
    for (let i = 1; i <= count; i += 1) {
      await processExchange(options.exchange(++id), processOptions, stats)
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
    if (stats.unrecorded > 0) throw new Error(`${stats.unrecorded} exchange(s) could not be recorded while measuring the recording work`)
    return { micros: Math.min(...rounds), rounds }
  } finally {
    log.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
