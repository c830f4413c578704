/**
 * What recording and validation cost (issue 8 item 3): the bare pass-through (proxy/forwarder.ts with
 * nothing observed) against `fitconform proxy --record` (the same forwarding plus capture, decoding,
 * analysis with Ajv, redaction and the NDJSON log), each in a process of its own, in front of the same
 * node:http upstream (a third process) answering a FitnessActivity of about 1 KB and of about 100 KB to
 * a client that sends a Bearer token and the right Accept, so that every exchange is validated in full.
 *
 *   throughput   autocannon, 16 connections, `--duration` seconds per case: direct, bare, recording
 *   latency      autocannon, 1 connection, 1 KB: p50 of the exact response times (not the
 *                whole-millisecond histogram), direct, bare, recording
 *   CPU          at a fixed rate both proxies can sustain, the CPU time each proxy process used per
 *                exchange (Linux /proc), and for `fitconform proxy` the share of its forwarding (main)
 *                thread: what recording costs, wherever it runs, independently of how busy the
 *                machine is (on 2 cores the load generator, the upstream and the proxy compete)
 *
 * The cases alternate within one run, so the ratios compare figures taken moments apart. After the run
 * the recording is counted: every request autocannon completed must be on its own line.
 *
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/proxy-recording-cost.js [--duration 2] [--json FILE]
 * Bounded: about 13 × duration + 5 seconds (about 30 s by default), loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createForwarder } from '../proxy/forwarder.js'
import { figure, formatTable, type Figure } from './support/figures.js'

const require = createRequire(import.meta.url)
const CLI_MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url))
const TOKEN = 'bench-token-0123456789abcdef'
const MEDIA_TYPE = 'application/vnd.com.service.FitnessActivity+json'
const BODY_SIZES = { '1 KB': 1024, '100 KB': 100 * 1024 } as const
type BodySize = keyof typeof BODY_SIZES

export interface RecordingCostOptions {
  /** Seconds per throughput and latency case. */
  readonly durationSeconds: number
}

export interface RecordingCostResult {
  readonly throughput: readonly { readonly body: BodySize; readonly direct: Load; readonly bare: Load; readonly recording: Load }[]
  readonly latency: { readonly direct: number; readonly bare: number; readonly recording: number }
  readonly cpu: readonly { readonly body: BodySize; readonly rate: number; readonly bare: CpuPerExchange; readonly recording: CpuPerExchange }[]
  readonly recorded: { readonly lines: number; readonly completed: number; readonly flushMs: number }
}

/** CPU time of a proxy process per exchange, in microseconds. */
interface CpuPerExchange {
  readonly process: number
  /** The main thread, which forwards (and, for `fitconform proxy`, hands exchanges to its recording thread). */
  readonly mainThread: number
}

/** Fixed rates below what either proxy sustains on 2 cores, so both handle the same exchanges. */
const CPU_RATES: Readonly<Record<BodySize, number>> = { '1 KB': 2000, '100 KB': 300 }

interface Load {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly completed: number
  readonly errors: number
}

export async function measureRecordingCost(options: RecordingCostOptions): Promise<RecordingCostResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fitconform-recording-cost-'))
  const recording = join(dir, 'bench.ndjson')
  const upstream = await startChild([fileURLToPath(import.meta.url), '--role', 'upstream'])
  const bare = await startChild([fileURLToPath(import.meta.url), '--role', 'bare', '--target', upstream.url])
  const recorder = await startChild([CLI_MAIN, 'proxy', '--target', upstream.url, '--record', recording])
  const bases = { direct: upstream.url, bare: bare.url, recording: recorder.url }
  let completedThroughRecorder = 0
  try {
    // JIT warm-up of both proxies on both bodies (also recorded).
    for (const size of Object.keys(BODY_SIZES) as BodySize[]) {
      for (const base of [bases.bare, bases.recording]) {
        const warm = await load({ url: urlFor(base, size), connections: 16, durationSeconds: 0.5 })
        if (base === bases.recording) completedThroughRecorder += warm.completed
      }
    }
    const throughput: { body: BodySize; direct: Load; bare: Load; recording: Load }[] = []
    for (const size of Object.keys(BODY_SIZES) as BodySize[]) {
      const run = (base: string) => load({ url: urlFor(base, size), connections: 16, durationSeconds: options.durationSeconds })
      const direct = await run(bases.direct)
      const bareLoad = await run(bases.bare)
      const recordingLoad = await run(bases.recording)
      completedThroughRecorder += recordingLoad.completed
      throughput.push({ body: size, direct, bare: bareLoad, recording: recordingLoad })
    }
    const p50 = async (base: string): Promise<number> => {
      const one = await load({ url: urlFor(base, '1 KB'), connections: 1, durationSeconds: options.durationSeconds })
      if (base === bases.recording) completedThroughRecorder += one.completed
      return one.p50Ms
    }
    const latency = { direct: await p50(bases.direct), bare: await p50(bases.bare), recording: await p50(bases.recording) }
    const cpu: { body: BodySize; rate: number; bare: CpuPerExchange; recording: CpuPerExchange }[] = []
    for (const size of Object.keys(BODY_SIZES) as BodySize[]) {
      const rate = CPU_RATES[size]
      const measureCpu = async (base: string, pid: number): Promise<CpuPerExchange> => {
        const before = { process: cpuMicros(pid), mainThread: cpuMicros(pid, pid) }
        const run = await load({ url: urlFor(base, size), connections: 8, durationSeconds: options.durationSeconds, rate })
        if (base === bases.recording) completedThroughRecorder += run.completed
        const perExchange = (after: number, start: number) => round((after - start) / Math.max(1, run.completed))
        return { process: perExchange(cpuMicros(pid), before.process), mainThread: perExchange(cpuMicros(pid, pid), before.mainThread) }
      }
      cpu.push({ body: size, rate, bare: await measureCpu(bases.bare, bare.pid), recording: await measureCpu(bases.recording, recorder.pid) })
    }
    const flushStarted = performance.now()
    await recorder.stop()
    const flushMs = performance.now() - flushStarted
    const lines = readFileSync(recording, 'utf8').split('\n').filter((line) => line !== '').length
    return { throughput, latency, cpu, recorded: { lines, completed: completedThroughRecorder, flushMs } }
  } finally {
    await recorder.stop()
    await bare.stop()
    await upstream.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The figures for `npm run bench`'s table. */
export async function benchProxyRecordingCost(options: RecordingCostOptions): Promise<Figure[]> {
  const result = await measureRecordingCost(options)
  const figures: Figure[] = []
  for (const row of result.throughput) {
    const cost = 100 * (1 - row.recording.requestsPerSecond / row.bare.requestsPerSecond)
    figures.push(
      figure({ benchmark: 'proxy', name: `${row.body}: direct`, value: row.direct.requestsPerSecond, unit: 'req/s', note: `p50 ${row.direct.p50Ms} ms, p99 ${row.direct.p99Ms} ms` }),
      figure({ benchmark: 'proxy', name: `${row.body}: bare pass-through`, value: row.bare.requestsPerSecond, unit: 'req/s', note: `p50 ${row.bare.p50Ms} ms, p99 ${row.bare.p99Ms} ms` }),
      figure({ benchmark: 'proxy', name: `${row.body}: fitconform proxy --record`, value: row.recording.requestsPerSecond, unit: 'req/s', note: `p50 ${row.recording.p50Ms} ms, p99 ${row.recording.p99Ms} ms, ${row.recording.errors} errors` }),
      figure({ benchmark: 'proxy', name: `${row.body}: recording cost vs bare`, value: round(cost), unit: '%', goal: { comparison: '<=', limit: 10 } }),
    )
  }
  for (const row of result.cpu) {
    const name = `${row.body} at ${row.rate} req/s: CPU per exchange`
    figures.push(
      figure({ benchmark: 'proxy', name: `${name}, bare pass-through`, value: row.bare.process, unit: 'µs' }),
      figure({ benchmark: 'proxy', name: `${name}, fitconform proxy --record`, value: row.recording.process, unit: 'µs', note: `of which ${row.recording.mainThread} µs on the forwarding thread (bare: ${row.bare.mainThread} µs)` }),
      figure({ benchmark: 'proxy', name: `${name}, added by recording`, value: round(row.recording.process - row.bare.process), unit: 'µs' }),
    )
  }
  const { latency, recorded } = result
  figures.push(
    figure({ benchmark: 'proxy', name: '1 KB, 1 connection: p50 direct', value: round(latency.direct), unit: 'ms' }),
    figure({ benchmark: 'proxy', name: '1 KB, 1 connection: p50 bare pass-through', value: round(latency.bare), unit: 'ms' }),
    figure({ benchmark: 'proxy', name: '1 KB, 1 connection: p50 fitconform proxy --record', value: round(latency.recording), unit: 'ms' }),
    figure({ benchmark: 'proxy', name: '1 KB, 1 connection: p50 added over direct', value: round(latency.recording - latency.direct), unit: 'ms', goal: { comparison: '<', limit: 1 } }),
    figure({
      benchmark: 'proxy',
      name: 'exchanges completed but not recorded',
      value: Math.max(0, recorded.completed - recorded.lines),
      unit: '',
      goal: { comparison: '<=', limit: 0 },
      note: `${recorded.completed} completed by autocannon, ${recorded.lines} lines (cut ones included); flush on SIGTERM took ${Math.round(recorded.flushMs)} ms`,
    }),
  )
  return figures
}

function urlFor(base: string, size: BodySize): string {
  return `${base}/fitnessActivities/${size === '1 KB' ? 1001 : 1002}`
}

/** CPU time (user + system) of a process, or of one of its threads, in microseconds, from /proc (Linux). */
function cpuMicros(pid: number, tid?: number): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
  // Fields after the command name (in parentheses): utime and stime are the 12th and 13th, in clock ticks (100 Hz).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

async function load(options: { url: string; connections: number; durationSeconds: number; rate?: number }): Promise<Load> {
  const autocannon = require('autocannon') // 9.x ships no types
  const times: number[] = []
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
    headers: { authorization: `Bearer ${TOKEN}`, accept: MEDIA_TYPE },
  })
  // The histogram keeps whole milliseconds; the event gives the exact time of each response.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime))
  const result = await instance
  times.sort((a, b) => a - b)
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: round(times[Math.floor(times.length * 0.5)] ?? NaN),
    p99Ms: round(times[Math.floor(times.length * 0.99)] ?? NaN),
    completed: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

interface Child {
  readonly url: string
  readonly pid: number
  stop(): Promise<void>
}

/** A child process that prints a line with its URL once it listens; stopped with SIGTERM. */
async function startChild(args: readonly string[]): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] })
  const lines = createInterface({ input: child.stdout! })
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`${args.join(' ')} exited (${String(code)}) before it listened`)))
  exited.catch(() => {}) // only the race below reports it
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string]
  const url = /(https?:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1]
  if (url === undefined) throw new Error(`no URL in the first line of ${args.join(' ')}: ${line}`)
  let stopped: Promise<void> | undefined
  return {
    url,
    pid: child.pid as number,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode !== null) return
        const gone = once(child, 'exit')
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
        await gone
        clearTimeout(timer)
      })()
      return stopped
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The child roles: the upstream, and the bare pass-through.

/** A complete FitnessActivity of about `bytes` bytes (no finding), its path as long as it takes. */
export function activityBody(bytes: number): Buffer {
  const activity = {
    uri: '/fitnessActivities/1001',
    userID: 7,
    type: 'Running',
    equipment: 'None',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 10000,
    duration: 3600,
    total_climb: 12,
    distance: [],
    heart_rate: [],
    calories: [],
    source: 'RunKeeper',
    entry_mode: 'API',
    has_map: 'true',
    comments: '/fitnessActivities/1001/comments',
    notes: 'morning run',
    nearest_teammate_strength_training_activities: [],
    nearest_teammate_background_activities: [],
    nearest_teammate_sleep: [],
    nearest_teammate_nutrition: [],
    nearest_teammate_weight: [],
    nearest_teammate_general_measurements: [],
    nearest_teammate_diabetes: [],
    path: [] as { timestamp: number; altitude: number; longitude: number; latitude: number; type: string }[],
  }
  for (let i = 0; Buffer.byteLength(JSON.stringify(activity)) < bytes; i += 1) {
    activity.path.push({ timestamp: i, altitude: 12.5, longitude: 4.8 + i / 1e5, latitude: 45.7 + i / 1e5, type: i === 0 ? 'start' : 'gps' })
  }
  return Buffer.from(JSON.stringify(activity))
}

async function serveUpstream(): Promise<void> {
  const bodies = new Map([
    ['/fitnessActivities/1001', activityBody(BODY_SIZES['1 KB'])],
    ['/fitnessActivities/1002', activityBody(BODY_SIZES['100 KB'])],
  ])
  const server = http.createServer((req, res) => {
    req.resume()
    const body = bodies.get(req.url ?? '')
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 2 }).end('no')
      return
    }
    res.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': body.length, 'last-modified': 'Tue, 01 Mar 2011 08:00:00 GMT' })
    res.end(body)
  })
  await listen(server)
}

async function serveBare(target: string): Promise<void> {
  const forwarder = createForwarder({ target: new URL(target) })
  await listen(http.createServer((req, res) => forwarder.forward(req, res, { onDone: () => {} })))
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
  const { values } = parseArgs({ options: { role: { type: 'string' }, target: { type: 'string' }, duration: { type: 'string', default: '2' }, json: { type: 'string' } } })
  if (values.role === 'upstream') await serveUpstream()
  else if (values.role === 'bare') await serveBare(values.target as string)
  else {
    const figures = await benchProxyRecordingCost({ durationSeconds: Number(values.duration) })
    process.stdout.write(`${formatTable(figures)}\n`)
    for (const each of figures) if (each.note !== undefined) process.stdout.write(`  ${each.name}: ${each.note}\n`)
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`)
  }
}
