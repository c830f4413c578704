/**
 * What recording and live validation cost (issue 15 item 3), side by side in one run on one machine:
 *
 *   bare         a plain node:http keep-alive forwarder that pipes request and response and records
 *                nothing (bench/support/bare-forwarder.ts), the ceiling a recording proxy is held to
 *   fitconform   `fitconform proxy --record FILE --quiet`: forwarding, capture, decoding, Ajv validation
 *                of every body, redaction, the NDJSON log, findings printed live
 *   mitmdump     mitmproxy's `mitmdump -w` recording the same traffic, when installed (Debian's
 *                `mitmproxy` package); its row says "not installed" otherwise
 *
 * each a process of its own, in front of the same node:http upstream (a third process) answering a
 * ~1 KB activity feed page (§2.2) to a client that sends a Bearer token and the right Accept, so that
 * every exchange is validated in full.
 *
 *   throughput   autocannon, 10 keep-alive connections, `--duration` seconds, bare, fitconform and
 *                mitmdump in alternating rounds (the median of the per-round ratios is the figure). fitconform's
 *                time runs until every exchange is on disk, validated: deferred work is inside the
 *                measured window (issue 15: "throughput counts exchanges until every recorded exchange
 *                is written and validated")
 *   latency      one connection, sequential keep-alive requests: p50 of the exact response times,
 *                direct (no proxy), bare and fitconform; the figure is fitconform minus direct
 *   CPU          the CPU time every process used per exchange (Linux /proc): the proxy (for fitconform
 *                also its forwarding thread alone), the upstream and the load generator, during each
 *                throughput round (saturation; fitconform's until its recording caught up) and again at
 *                a fixed rate every proxy sustains. From the saturation figures: the ratio the CPU
 *                budgets allow when both cores are busy, and how many cores each setup kept busy (what
 *                the two leave idle is lost to waiting, not to work)
 *
 * After the run the recording is counted: every request autocannon completed must be on its own line.
 *
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/proxy-recording-cost.js [--duration 3] [--json FILE]
 * Bounded: about 23 × duration + 10 seconds (18 × without mitmdump), loopback only.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createBareForwarder } from './support/bare-forwarder.js'
import { figure, formatTable, type Figure } from './support/figures.js'
import {
  cpuMicros,
  createLineCounter,
  load,
  median,
  round,
  startChild,
  waitForCount,
  type Child,
  type Load,
} from './support/proxy-load.js'
import { CLI } from './support/processes.js'
import { measureRecordingWork, type RecordingWork } from './support/recording-work.js'
import type { CapturedExchange } from '../proxy/recording/recorder.js'
import { createFreshBodyExchanges, createRealisticExchanges } from './support/realistic-exchanges.js'
import { createRealisticUpstream, meanBodyBytes, realisticRequests } from './support/realistic-traffic.js'

const TOKEN = 'bench-token-0123456789abcdef'
const FEED_TYPE = 'application/vnd.com.service.FitnessActivityFeed+json'
const HEADERS = { authorization: `Bearer ${TOKEN}`, accept: FEED_TYPE }
const FEED_PATH = '/fitnessActivities'
const CONNECTIONS = 10
/** Five short rounds, alternating: a median that a burst of other work on a shared machine moves less. */
const ROUNDS = 5
/** A rate all three proxies sustain on 2 cores, so each handles the same exchanges for the CPU figure. */
const CPU_RATE = 1000
/** Longest a recording may take to catch up after a load before the bench gives up. */
const CATCH_UP_LIMIT_MS = 60_000

export interface RecordingCostOptions {
  /** Seconds per load. */
  readonly durationSeconds: number
  /**
   * `realistic` (the default, and the traffic the goals are judged on): every exchange differs
   * (support/realistic-traffic.ts). `polled`: one ~1 KB feed page polled again and again, which all but
   * the first exchange of each second records from the first (`ExchangeMemo` of
   * proxy/recording/bytes-memo.ts).
   */
  readonly traffic?: Traffic
}

export type Traffic = 'realistic' | 'polled'

/** One proxy under load: its throughput (for fitconform, up to the moment its recording caught up). */
export interface ProxyThroughput {
  readonly requestsPerSecond: number
  readonly completed: number
  /** How long the recording took to catch up once the load stopped (0 for the bare pass-through). */
  readonly catchUpMs: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
  /** CPU per exchange of every process during this load (mitmdump: none). */
  readonly cpu?: CpuShares
}

/** Every figure of the run, for the bench table and for a peers table beside it. */
export interface RecordingCostResult {
  readonly traffic: Traffic
  readonly bodyBytes: number
  readonly connections: number
  readonly rounds: readonly { readonly bare: ProxyThroughput; readonly fitconform: ProxyThroughput }[]
  /** Medians over the rounds. */
  readonly bare: ProxyThroughput
  readonly fitconform: ProxyThroughput
  /** Median over the rounds of fitconform's throughput over the bare pass-through's, taken moments apart. */
  readonly ratio: number
  readonly mitmdump: MitmdumpThroughput | 'not installed'
  /** p50 in milliseconds, one connection, sequential requests. */
  readonly latency: {
    readonly direct: number
    readonly bare: number
    readonly fitconform: number
    readonly addedOverDirect: number
  }
  /** CPU per exchange in microseconds at CPU_RATE requests per second. */
  readonly cpu: {
    readonly rate: number
    readonly bare: CpuShares
    readonly fitconform: CpuShares
    /** fitconform's process over the bare pass-through's. */
    readonly addedByRecording: number
  }
  /** CPU per exchange in microseconds during the throughput rounds (medians), and what follows from it. */
  readonly saturation: {
    readonly bare: CpuShares
    readonly fitconform: CpuShares
    /**
     * The ratio the two CPU budgets allow when every core is busy with this bench (load generator +
     * upstream + proxy on the same cores): (gen + up + bare) / (gen + up + fitconform), gen and up
     * averaged over both runs.
     */
    readonly ceiling: number
    /** Cores the three processes kept busy: CPU per exchange × exchanges a second. */
    readonly coresBusy: { readonly bare: number; readonly fitconform: number }
  }
  readonly recorded: { readonly lines: number; readonly completed: number }
  /** CPU per exchange of the recording alone, in this process, without the network (support/recording-work.ts). */
  readonly recordingWork: { readonly distinct: RecordingWork; readonly repeated: RecordingWork }
  /** The same for the realistic mix with no body ever read twice (realistic traffic only). */
  readonly freshBodiesWork?: RecordingWork
}

/** mitmdump recording the same traffic (medians of its rounds), and its version (`mitmdump --version`). */
export interface MitmdumpThroughput extends ProxyThroughput {
  readonly version: string
  /** Median over the rounds of mitmdump's throughput over fitconform's, taken moments apart in the same round. */
  readonly ratioToFitconform: number
  readonly rounds: readonly ProxyThroughput[]
}

/** CPU time per exchange, in microseconds, of every process an exchange goes through. */
export interface CpuShares {
  readonly proxy: number
  /** The proxy's main thread: all of it for the bare pass-through; forwarding (no recording) for fitconform. */
  readonly forwardingThread: number
  readonly upstream: number
  /** autocannon, in the bench's own process. */
  readonly generator: number
}

export async function measureRecordingCost(options: RecordingCostOptions): Promise<RecordingCostResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fitconform-recording-cost-'))
  const recording = join(dir, 'bench.ndjson')
  const self = fileURLToPath(import.meta.url)
  const traffic = options.traffic ?? 'realistic'
  const upstream = await startChild(process.execPath, [self, '--role', 'upstream'])
  const bare = await startChild(process.execPath, [self, '--role', 'bare', '--target', upstream.url])
  const recorder = await startChild(process.execPath, [
    CLI,
    'proxy',
    '--target',
    upstream.url,
    '--record',
    recording,
    '--quiet',
  ])
  // Started with the others, so that each round loads it beside them: on a shared machine a figure taken
  // at another moment is another machine.
  const mitm = await startMitmdump(upstream.url, dir)
  const lines = createLineCounter(recording)
  let throughRecorder = 0
  // CPU per exchange of every process an exchange goes through, over one measured load.
  const cpuOf = async <T extends { completed: number }>(
    child: Child,
    measure: () => Promise<T>,
  ): Promise<T & { cpu: CpuShares }> => {
    const before = {
      proxy: cpuMicros(child.pid),
      main: cpuMicros(child.pid, child.pid),
      upstream: cpuMicros(upstream.pid),
      generator: process.cpuUsage(),
    }
    const measured = await measure()
    const per = (spent: number): number => round(spent / Math.max(1, measured.completed))
    const generator = process.cpuUsage(before.generator)
    const cpu = {
      proxy: per(cpuMicros(child.pid) - before.proxy),
      forwardingThread: per(cpuMicros(child.pid, child.pid) - before.main),
      upstream: per(cpuMicros(upstream.pid) - before.upstream),
      generator: per(generator.user + generator.system),
    }
    return { ...measured, cpu }
  }
  const run = async (
    base: string,
    extra: { connections?: number; rate?: number; seconds?: number } = {},
  ): Promise<Load> =>
    load({
      ...trafficLoad(traffic),
      url: `${base}${FEED_PATH}`,
      connections: extra.connections ?? CONNECTIONS,
      durationSeconds: extra.seconds ?? options.durationSeconds,
      rate: extra.rate,
    })
  /** A load through fitconform, timed until its recording holds every exchange. */
  const runRecorder = async (
    extra: { connections?: number; rate?: number; seconds?: number } = {},
  ): Promise<ProxyThroughput> => {
    const loaded = await run(recorder.url, extra)
    throughRecorder += loaded.completed
    const started = performance.now()
    await waitForCount(lines, throughRecorder, CATCH_UP_LIMIT_MS)
    const catchUpMs = performance.now() - started
    return throughputOf(loaded, catchUpMs)
  }
  try {
    // JIT warm-up of both proxies (also recorded).
    await run(bare.url, { seconds: 1 })
    await runRecorder({ seconds: 1 })
    if (mitm !== 'not installed') await run(mitm.url, { seconds: 1 })
    const rounds: { bare: ProxyThroughput; fitconform: ProxyThroughput }[] = []
    const mitmRounds: ProxyThroughput[] = []
    for (let i = 0; i < ROUNDS; i += 1) {
      const bareRound = await cpuOf(bare, () => run(bare.url))
      rounds.push({
        bare: { ...throughputOf(bareRound, 0), cpu: bareRound.cpu },
        fitconform: await cpuOf(recorder, () => runRecorder()),
      })
      if (mitm !== 'not installed') mitmRounds.push(throughputOf(await run(mitm.url), 0))
    }
    const mitmdump: MitmdumpThroughput | 'not installed' =
      mitm === 'not installed'
        ? mitm
        : {
            ...medianThroughput(mitmRounds),
            version: mitm.version,
            ratioToFitconform: round(
              median(
                mitmRounds.map(
                  (each, i) =>
                    each.requestsPerSecond /
                    (rounds[i] as { fitconform: ProxyThroughput }).fitconform.requestsPerSecond,
                ),
              ),
            ),
            rounds: mitmRounds,
          }

    const p50 = async (measure: () => Promise<{ p50Ms: number }>): Promise<number> => (await measure()).p50Ms
    const latency = {
      direct: await p50(() => run(upstream.url, { connections: 1 })),
      bare: await p50(() => run(bare.url, { connections: 1 })),
      fitconform: await p50(() => runRecorder({ connections: 1 })),
    }

    // CPU at a fixed rate, per exchange: each proxy process (and fitconform's forwarding thread), and
    // what the upstream and the load generator (this process) spend on the same exchanges.
    const cpuBare = (await cpuOf(bare, () => run(bare.url, { rate: CPU_RATE }))).cpu
    const cpuRecording = (await cpuOf(recorder, () => runRecorder({ rate: CPU_RATE }))).cpu

    await recorder.stop()
    const recorded = { lines: lines(), completed: throughRecorder }
    const recordingWork = await measureRecordingWork({
      target: new URL(upstream.url),
      exchange: traffic === 'polled' ? benchExchange : createRealisticExchanges(HEADERS.authorization),
    })
    // Fewer rounds: each exchange costs about five times as much, and the least round is the figure.
    const freshBodiesWork =
      traffic === 'polled'
        ? undefined
        : (
            await measureRecordingWork({
              target: new URL(upstream.url),
              exchange: createFreshBodyExchanges(HEADERS.authorization),
              rounds: 5,
              perRound: 1000,
            })
          ).distinct
    const bareMedian = medianThroughput(rounds.map((each) => each.bare))
    const fitconformMedian = medianThroughput(rounds.map((each) => each.fitconform))
    const saturated = {
      bare: medianCpu(rounds.map((each) => each.bare.cpu)),
      fitconform: medianCpu(rounds.map((each) => each.fitconform.cpu)),
    }
    return {
      traffic,
      bodyBytes: traffic === 'polled' ? feedPage().length : meanBodyBytes(),
      connections: CONNECTIONS,
      rounds,
      bare: bareMedian,
      fitconform: fitconformMedian,
      ratio: round(median(rounds.map((each) => each.fitconform.requestsPerSecond / each.bare.requestsPerSecond))),
      mitmdump,
      latency: { ...latency, addedOverDirect: round(latency.fitconform - latency.direct) },
      cpu: {
        rate: CPU_RATE,
        bare: cpuBare,
        fitconform: cpuRecording,
        addedByRecording: round(cpuRecording.proxy - cpuBare.proxy),
      },
      saturation: {
        ...saturated,
        ceiling: saturationCeiling(saturated.bare, saturated.fitconform),
        coresBusy: {
          bare: coresBusy(saturated.bare, bareMedian),
          fitconform: coresBusy(saturated.fitconform, fitconformMedian),
        },
      },
      recorded,
      recordingWork,
      freshBodiesWork,
    }
  } finally {
    if (mitm !== 'not installed') await mitm.stop()
    await recorder.stop()
    await bare.stop()
    await upstream.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The figures for `npm run bench`'s table: every figure on realistic traffic, with the goals; then the
 * polled page's throughput rows, without goals (the memo-friendly figure, a second row only).
 */
export async function benchProxyRecordingCost(options: RecordingCostOptions): Promise<Figure[]> {
  const realistic = recordingCostFigures(await measureRecordingCost({ ...options, traffic: 'realistic' }))
  const polled = polledFigures(await measureRecordingCost({ ...options, traffic: 'polled' }))
  return [...realistic, ...polled]
}

/** The request options of a load of `traffic`. */
function trafficLoad(traffic: Traffic): { headers: Record<string, string>; requests?: readonly unknown[] } {
  return traffic === 'polled'
    ? { headers: HEADERS }
    : { headers: {}, requests: realisticRequests(HEADERS.authorization) }
}

/** The polled page's throughput rows: beside the realistic ones, never judged. */
function polledFigures(result: RecordingCostResult): Figure[] {
  const load = `polled page (memo-friendly), ${result.connections} connections, ${result.bodyBytes} B`
  const figures: Figure[] = [
    figure({
      benchmark: 'proxy',
      name: `${load}: bare pass-through`,
      value: result.bare.requestsPerSecond,
      unit: 'req/s',
      note: rpsNote(result.bare),
    }),
    figure({
      benchmark: 'proxy',
      name: `${load}: fitconform proxy`,
      value: result.fitconform.requestsPerSecond,
      unit: 'req/s',
      note: rpsNote(result.fitconform),
    }),
    figure({
      benchmark: 'proxy',
      name: `${load}: fitconform / bare`,
      value: round(100 * result.ratio),
      unit: '%',
      samples: result.rounds.map((each) =>
        round((100 * each.fitconform.requestsPerSecond) / each.bare.requestsPerSecond),
      ),
      note: 'second row only: the goal is judged on realistic traffic',
    }),
    figure({
      benchmark: 'proxy',
      name: 'recording work per exchange made again (the page polled), without the network',
      value: result.recordingWork.repeated.micros,
      unit: 'µs',
      samples: result.recordingWork.repeated.rounds,
      note: "the same, for this bench's traffic as it is: the same exchange but for its id and clock, recorded from what the first one left (proxy/recording/bytes-memo.ts `ExchangeMemo`)",
    }),
  ]
  if (result.mitmdump !== 'not installed') {
    figures.push(
      figure({
        benchmark: 'peers',
        name: `${load}: mitmdump / fitconform proxy`,
        value: result.mitmdump.ratioToFitconform,
        unit: '',
        note: 'second row only; median of the per-round ratios',
      }),
    )
  }
  return figures
}

export function recordingCostFigures(result: RecordingCostResult): Figure[] {
  const { bare, fitconform, mitmdump, latency, cpu, saturation, recorded } = result
  const load =
    result.traffic === 'polled'
      ? `${result.connections} connections, ${result.bodyBytes} B feed page`
      : `realistic traffic (every exchange differs, mean body ${result.bodyBytes} B), ${result.connections} connections`
  const rps = rpsNote
  const figures: Figure[] = [
    figure({
      benchmark: 'proxy',
      name: `${load}: bare node:http pass-through`,
      value: bare.requestsPerSecond,
      unit: 'req/s',
      note: rps(bare),
    }),
    figure({
      benchmark: 'proxy',
      name: `${load}: fitconform proxy (recording + live validation)`,
      value: fitconform.requestsPerSecond,
      unit: 'req/s',
      note: `${rps(fitconform)}; counted until every exchange was written and validated (catch-up ${Math.round(fitconform.catchUpMs)} ms)`,
    }),
    figure({
      benchmark: 'proxy',
      name: 'fitconform proxy / bare pass-through',
      value: round(100 * result.ratio),
      unit: '%',
      samples: result.rounds.map((each) =>
        round((100 * each.fitconform.requestsPerSecond) / each.bare.requestsPerSecond),
      ),
      note: 'median of the per-round ratios; goal >= 70 %, aim 85 %',
    }),
    ...mitmdumpFigures(mitmdump, fitconform, load),
    figure({ benchmark: 'proxy', name: '1 connection: p50 direct', value: latency.direct, unit: 'ms' }),
    figure({ benchmark: 'proxy', name: '1 connection: p50 bare pass-through', value: latency.bare, unit: 'ms' }),
    figure({ benchmark: 'proxy', name: '1 connection: p50 fitconform proxy', value: latency.fitconform, unit: 'ms' }),
    figure({
      benchmark: 'proxy',
      name: '1 connection: p50 added by fitconform over direct',
      value: latency.addedOverDirect,
      unit: 'ms',
      goal: { comparison: '<', limit: 0.3 },
    }),
    figure({
      benchmark: 'proxy',
      name: `CPU per exchange at ${cpu.rate} req/s: bare pass-through`,
      value: cpu.bare.proxy,
      unit: 'µs',
      note: `upstream ${cpu.bare.upstream} µs, load generator ${cpu.bare.generator} µs`,
    }),
    figure({
      benchmark: 'proxy',
      name: `CPU per exchange at ${cpu.rate} req/s: fitconform proxy`,
      value: cpu.fitconform.proxy,
      unit: 'µs',
      note: `${cpu.fitconform.forwardingThread} µs on the forwarding thread, ${round(cpu.fitconform.proxy - cpu.fitconform.forwardingThread)} µs on the recording thread; upstream ${cpu.fitconform.upstream} µs, load generator ${cpu.fitconform.generator} µs`,
    }),
    figure({
      benchmark: 'proxy',
      name: `CPU per exchange at ${cpu.rate} req/s: fitconform over bare`,
      value: cpu.addedByRecording,
      unit: 'µs',
    }),
    figure({
      benchmark: 'proxy',
      name: 'CPU per exchange at saturation: bare pass-through',
      value: saturation.bare.proxy,
      unit: 'µs',
      note: `upstream ${saturation.bare.upstream} µs, load generator ${saturation.bare.generator} µs (medians of the throughput rounds)`,
    }),
    figure({
      benchmark: 'proxy',
      name: 'CPU per exchange at saturation: fitconform proxy',
      value: saturation.fitconform.proxy,
      unit: 'µs',
      note: `${saturation.fitconform.forwardingThread} µs on the forwarding thread, ${round(saturation.fitconform.proxy - saturation.fitconform.forwardingThread)} µs on the recording and V8's threads; upstream ${saturation.fitconform.upstream} µs, load generator ${saturation.fitconform.generator} µs`,
    }),
    figure({
      benchmark: 'proxy',
      name: 'ratio the CPU budgets allow at saturation',
      value: round(100 * saturation.ceiling),
      unit: '%',
      note: '(load generator + upstream + bare) / (load generator + upstream + fitconform), CPU per exchange during the throughput rounds: what the throughput ratio tends to when all cores are busy',
    }),
    figure({
      benchmark: 'proxy',
      name: 'ratio the CPU budgets would allow were recording free',
      value: round(
        100 *
          saturationCeiling(saturation.bare, {
            ...saturation.fitconform,
            proxy: saturation.fitconform.forwardingThread,
          }),
      ),
      unit: '%',
      note: "the same with fitconform's forwarding thread alone (decoding, validation, scrubbing and writing counted as nothing): the most any recording work leaves reachable on these cores",
    }),
    figure({
      benchmark: 'proxy',
      name: 'cores kept busy at saturation: fitconform (bare in the note)',
      value: saturation.coresBusy.fitconform,
      unit: '',
      note: `bare ${saturation.coresBusy.bare}; load generator + upstream + proxy, CPU per exchange × exchanges a second, of 2 cores shared with whatever else runs`,
    }),
    figure({
      benchmark: 'proxy',
      name: `recording work per ${result.traffic === 'polled' ? 'new exchange' : 'exchange of the realistic mix'}, without the network (decode, validate, redact, write)`,
      value: result.recordingWork.distinct.micros,
      unit: 'µs',
      samples: result.recordingWork.distinct.rounds,
      note: "CPU of this process per exchange of the same traffic (polled traffic: each with a request header of its own), through the recording thread's step (proxy/recording/ring-recording.ts); the least of the rounds: other work on the machine only adds to a round",
    }),
    ...(result.freshBodiesWork === undefined
      ? []
      : [
          figure({
            benchmark: 'proxy',
            name: 'recording work per exchange of the mix where no body is read twice, without the network',
            value: result.freshBodiesWork.micros,
            unit: 'µs',
            samples: result.freshBodiesWork.rounds,
            note: 'the same measure over the mix with each body made new (leading whitespace of its own): a client that never goes back to a resource; the memos of texts never find one',
          }),
        ]),
    figure({
      benchmark: 'proxy',
      name: 'exchanges completed but not recorded',
      value: Math.max(0, recorded.completed - recorded.lines),
      unit: '',
      goal: { comparison: '<=', limit: 0 },
      note: `${recorded.completed} completed by autocannon, ${recorded.lines} lines (cut ones included)`,
    }),
  ]
  // The ratio's goal is a floor: held as "shortfall below 70 % <= 0" so the table's verdict column reads it.
  figures.push(
    figure({
      benchmark: 'proxy',
      name: 'shortfall below 70 % of bare',
      value: round(Math.max(0, 70 - 100 * result.ratio)),
      unit: 'points',
      goal: { comparison: '<=', limit: 0 },
    }),
  )
  return figures
}

/** The peers table's mitmdump rows: its throughput and its share of ours, or why it did not run. */
function mitmdumpFigures(
  mitmdump: MitmdumpThroughput | 'not installed',
  fitconform: ProxyThroughput,
  load: string,
): Figure[] {
  const name = `mitmdump -w recording the same traffic (${load})`
  if (mitmdump === 'not installed')
    return [
      figure({
        benchmark: 'peers',
        name,
        value: Number.NaN,
        unit: 'req/s',
        note: 'skipped: mitmdump is not installed (Debian: apt-get install -y mitmproxy; docs/benchmarks.md)',
      }),
    ]
  const times = round(1 / mitmdump.ratioToFitconform)
  return [
    figure({
      benchmark: 'peers',
      name: `mitmdump ${mitmdump.version} -w recording the same traffic (${load})`,
      value: mitmdump.requestsPerSecond,
      unit: 'req/s',
      note: rpsNote(mitmdump),
    }),
    // The goal is "fitconform >= 6× mitmdump", held as its inverse so that the table's verdict column reads it.
    figure({
      benchmark: 'peers',
      name: '  mitmdump / fitconform proxy, throughput, same run',
      value: mitmdump.ratioToFitconform,
      unit: '',
      goal: { comparison: '<=', limit: round(1 / 6) },
      samples: mitmdump.rounds.map((each) => each.requestsPerSecond),
      note: `fitconform is ${times}× mitmdump (goal >= 6×): median of the per-round ratios, mitmdump loaded right after fitconform in each of the ${mitmdump.rounds.length} rounds (fitconform's median ${fitconform.requestsPerSecond} req/s)`,
    }),
  ]
}

function rpsNote(each: ProxyThroughput): string {
  return `p50 ${each.p50Ms} ms, p99 ${each.p99Ms} ms, ${each.errors} errors`
}

/**
 * The load generator and the upstream do the same work per exchange behind either proxy: their mean
 * over both runs is shared, so that only the proxies' own CPU tells the two budgets apart.
 */
function saturationCeiling(bare: CpuShares, fitconform: CpuShares): number {
  const shared = (bare.generator + fitconform.generator + bare.upstream + fitconform.upstream) / 2
  return round((shared + bare.proxy) / (shared + fitconform.proxy))
}

function medianCpu(runs: readonly (CpuShares | undefined)[]): CpuShares {
  const known = runs.filter((each): each is CpuShares => each !== undefined)
  const pick = (field: keyof CpuShares): number => round(median(known.map((each) => each[field])))
  return {
    proxy: pick('proxy'),
    forwardingThread: pick('forwardingThread'),
    upstream: pick('upstream'),
    generator: pick('generator'),
  }
}

function coresBusy(cpu: CpuShares, throughput: ProxyThroughput): number {
  return round(((cpu.proxy + cpu.upstream + cpu.generator) * throughput.requestsPerSecond) / 1e6)
}

function throughputOf(loaded: Load, catchUpMs: number): ProxyThroughput {
  const seconds = loaded.seconds + catchUpMs / 1000
  return {
    requestsPerSecond: Math.round(loaded.completed / seconds),
    completed: loaded.completed,
    catchUpMs: round(catchUpMs),
    p50Ms: loaded.p50Ms,
    p99Ms: loaded.p99Ms,
    errors: loaded.errors,
  }
}

function medianThroughput(runs: readonly ProxyThroughput[]): ProxyThroughput {
  const pick = (field: Exclude<keyof ProxyThroughput, 'cpu'>): number => round(median(runs.map((each) => each[field])))
  return {
    requestsPerSecond: pick('requestsPerSecond'),
    completed: pick('completed'),
    catchUpMs: pick('catchUpMs'),
    p50Ms: pick('p50Ms'),
    p99Ms: pick('p99Ms'),
    errors: pick('errors'),
  }
}

/** mitmdump recording to a file in reverse proxy mode (`-w`), started; or 'not installed'. */
async function startMitmdump(
  upstreamUrl: string,
  dir: string,
): Promise<{ readonly url: string; readonly version: string; stop(): Promise<void> } | 'not installed'> {
  let version: string
  try {
    // "Mitmproxy: 8.1.1\nPython: …"
    version =
      /Mitmproxy:\s*(\S+)/.exec(execFileSync('mitmdump', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown version'
  } catch {
    return 'not installed'
  }
  const port = await freePort()
  const { spawn } = await import('node:child_process')
  const child = spawn(
    'mitmdump',
    [
      '--mode',
      `reverse:${upstreamUrl}`,
      '--listen-host',
      '127.0.0.1',
      '--listen-port',
      String(port),
      '-w',
      join(dir, 'mitmdump.flows'),
      '-q',
    ],
    { stdio: 'ignore' },
  )
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  try {
    await waitForPort(port, 30_000)
  } catch (err) {
    await stop()
    throw err
  }
  return { url: `http://127.0.0.1:${port}`, version, stop }
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitForPort(port: number, limitMs: number): Promise<void> {
  const started = performance.now()
  for (;;) {
    const socket = net.connect(port, '127.0.0.1')
    const connected = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true))
      socket.once('error', () => resolve(false))
    })
    socket.destroy()
    if (connected) return
    if (performance.now() - started > limitMs)
      throw new Error(`mitmdump did not listen on ${port} within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

// ---------------------------------------------------------------------------------------------
// The child roles: the upstream, and the bare pass-through.

/** An activity feed page (§2.2) of about 1 KB: five items, a size and a link to the previous page. */
export function feedPage(): Buffer {
  const items = Array.from({ length: 5 }, (_, i) => ({
    type: 'Running',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 10_000 + i,
    duration: 3600,
    source: 'RunKeeper',
    entry_mode: 'API',
    has_map: 'true',
    uri: `/fitnessActivities/${1001 + i}`,
  }))
  return Buffer.from(JSON.stringify({ size: 40, items, previous: 'http://127.0.0.1/fitnessActivities?page=2' }))
}

let benchPage: Buffer | undefined

/** One exchange of this bench's traffic as the forwarding thread captures it, with buffers of its own. */
function benchExchange(id: number): CapturedExchange {
  benchPage ??= feedPage()
  const page = Buffer.from(benchPage) // a copy, as the recorder makes one
  const now = performance.now()
  return {
    id,
    startedAt: new Date(),
    method: 'GET',
    clientPath: FEED_PATH,
    upstreamPath: FEED_PATH,
    httpVersion: 'HTTP/1.1',
    requestHeaders: ['host', '127.0.0.1:8080', 'authorization', HEADERS.authorization, 'accept', HEADERS.accept],
    requestBody: { bytes: Buffer.alloc(0), size: 0, truncated: false },
    response: {
      status: 200,
      statusText: 'OK',
      rawHeaders: [
        'content-type',
        FEED_TYPE,
        'content-length',
        String(page.length),
        'last-modified',
        'Tue, 01 Mar 2011 08:00:00 GMT',
        'Date',
        new Date().toUTCString(),
        'Connection',
        'keep-alive',
        'Keep-Alive',
        'timeout=5',
      ],
      body: { bytes: page, size: page.length, truncated: false },
    },
    times: { start: now, requestSent: now + 0.05, responseStart: now + 0.2, end: now + 0.25 },
  }
}

async function serveUpstream(): Promise<void> {
  const bodies = new Map([[FEED_PATH, feedPage()]])
  const realistic = createRealisticUpstream('http://127.0.0.1')
  const server = http.createServer((req, res) => {
    req.resume()
    if (realistic(req, res)) return
    const body = bodies.get(req.url ?? '')
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 2 }).end('no')
      return
    }
    res.writeHead(200, {
      'content-type': FEED_TYPE,
      'content-length': body.length,
      'last-modified': 'Tue, 01 Mar 2011 08:00:00 GMT',
    })
    res.end(body)
  })
  await listen(server)
}

async function serveBare(target: string): Promise<void> {
  await listen(http.createServer(createBareForwarder(new URL(target))))
}

async function listen(server: http.Server): Promise<void> {
  server.keepAliveTimeout = 5000
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`)
  process.on('SIGTERM', () => {
    server.closeAllConnections()
    server.close(() => process.exit(0))
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      role: { type: 'string' },
      target: { type: 'string' },
      duration: { type: 'string', default: '3' },
      json: { type: 'string' },
    },
  })
  if (values.role === 'upstream') await serveUpstream()
  else if (values.role === 'bare') await serveBare(values.target as string)
  else {
    const figures = await benchProxyRecordingCost({ durationSeconds: Number(values.duration) })
    process.stdout.write(`${formatTable(figures)}\n`)
    for (const each of figures) if (each.note !== undefined) process.stdout.write(`  ${each.name}: ${each.note}\n`)
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`)
  }
}
