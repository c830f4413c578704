/**
 * Recording at scale: 100,000 exchanges recorded by `fitconform proxy --record` in front of the
 * reference server (each in its own process), then `fitconform analyze` and `fitconform scaffold` over
 * the file: wall time and peak memory of each process.
 *
 * The traffic is what a client of the API does, so that the scaffolder has flows to follow: on each of
 * 16 connections, over and over, create an activity, read it, delete it, read the feed, read the user.
 * An activity's flow ends with its delete, so what the scaffolder must hold at once stays small.
 *
 * "Memory must not grow with the recording's length": the proxy's resident memory is read after the
 * first 10,000 exchanges and at the end, and analyze and scaffold also run over the first 10,000 lines
 * of the same file; the figure is the ratio of the peaks (100,000 against 10,000), held to GROWTH_LIMIT.
 */
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { figure, type Figure } from './support/figures.js'
import { CLI, runNode, startLineChild, startServerProcess, temporaryFolder } from './support/processes.js'
import { round } from './support/statistics.js'

const require = createRequire(import.meta.url)

export const RECORDED_EXCHANGES = 100_000
const PREFIX_EXCHANGES = 10_000
const CONNECTIONS = 16
/**
 * Memory "does not grow" when ten times the exchanges stay within this factor of the peak. Not 1.0:
 * V8's heap sizing alone moves a streaming process's peak by about 20% (analyze measured 81 MB over
 * 10,000 to 60,000 exchanges, 96 MB over 100,000 and 98 MB over 200,000).
 */
export const GROWTH_LIMIT = 1.5

export async function benchRecordingAtScale(options: { exchanges?: number } = {}): Promise<Figure[]> {
  const exchanges = options.exchanges ?? RECORDED_EXCHANGES
  const prefixExchanges = Math.min(PREFIX_EXCHANGES, Math.floor(exchanges / 10))
  const folder = temporaryFolder('recording')
  const recording = join(folder.dir, 'recording.ndjson')
  const prefix = join(folder.dir, 'recording-prefix.ndjson')
  try {
    const recorded = await record({ recording, exchanges, sampleAfter: prefixExchanges })
    const lines = await copyLines(recording, prefix, prefixExchanges)
    const tools: { name: string; args: (file: string, out: string) => string[] }[] = [
      { name: 'analyze', args: (file) => [CLI, 'analyze', file, '--json'] },
      { name: 'scaffold', args: (file, out) => [CLI, 'scaffold', file, '-o', out, '--force'] },
    ]
    const figures: Figure[] = [
      figure({
        benchmark: 'recording',
        name: `${lines.total} exchanges recorded through fitconform proxy --record`,
        value: round(recorded.seconds),
        unit: 's',
        note: `${Math.round(lines.total / recorded.seconds)} exchanges/s with ${CONNECTIONS} connections; ${round(statSync(recording).size / 1024 / 1024, 1)} MB; ${recorded.completed} completed by autocannon, ${recorded.errors} errors`,
      }),
      figure({
        benchmark: 'recording',
        name: `  proxy resident memory after ${lines.total} exchanges`,
        value: round(recorded.rssAtEndMb),
        unit: 'MB',
        note: `${round(recorded.rssAtSampleMb)} MB after ${prefixExchanges}; peak ${round(recorded.peakMb)} MB (Linux /proc)`,
      }),
      figure({
        benchmark: 'recording',
        name: `  proxy memory growth, ${lines.total} / ${prefixExchanges} exchanges`,
        value: round(recorded.rssAtEndMb / recorded.rssAtSampleMb),
        unit: 'x',
        goal: { comparison: '<=', limit: GROWTH_LIMIT },
      }),
    ]
    for (const tool of tools) {
      const small = await measureTool(tool.args(prefix, join(folder.dir, `${tool.name}-prefix`)))
      const large = await measureTool(tool.args(recording, join(folder.dir, `${tool.name}-all`)))
      const command = `node bin/fitconform.js ${tool.args('recording.ndjson', 'out').slice(1).join(' ')}`
      figures.push(
        figure({
          benchmark: 'recording',
          name: `${tool.name} over ${lines.total} exchanges`,
          value: round(large.wallMs / 1000),
          unit: 's',
          note: `${command}; exit ${large.exitCode}; ${round(small.wallMs / 1000)} s over ${prefixExchanges}`,
        }),
        figure({
          benchmark: 'recording',
          name: `  ${tool.name} peak memory over ${lines.total} exchanges`,
          value: round(large.peakRssMb),
          unit: 'MB',
          note: `${round(small.peakRssMb)} MB over ${prefixExchanges}`,
        }),
        figure({
          benchmark: 'recording',
          name: `  ${tool.name} memory growth, ${lines.total} / ${prefixExchanges} exchanges`,
          value: round(large.peakRssMb / small.peakRssMb),
          unit: 'x',
          goal: { comparison: '<=', limit: GROWTH_LIMIT },
        }),
      )
    }
    return figures
  } finally {
    folder.remove()
  }
}

export async function measureTool(
  args: readonly string[],
): Promise<{ wallMs: number; exitCode: number | null; peakRssMb: number }> {
  const result = await runNode(args, { usage: true, timeoutMs: 300_000 })
  // analyze exits 1 when the recording holds a violation: that is an answer, not a failure.
  if (result.exitCode !== 0 && result.exitCode !== 1)
    throw new Error(`${args.slice(1, 3).join(' ')} exited ${result.exitCode}: ${result.stderr.slice(-800)}`)
  return { wallMs: result.wallMs, exitCode: result.exitCode, peakRssMb: result.usage?.peakRssMb ?? Number.NaN }
}

interface Recorded {
  readonly seconds: number
  readonly completed: number
  readonly errors: number
  readonly rssAtSampleMb: number
  readonly rssAtEndMb: number
  readonly peakMb: number
}

export async function record(options: {
  recording: string
  exchanges: number
  sampleAfter: number
}): Promise<Recorded> {
  const server = await startServerProcess()
  const proxy = await startLineChild([CLI, 'proxy', '--target', server.url, '--record', options.recording, '--quiet'])
  try {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(proxy.line)?.[1]
    if (!url) throw new Error(`fitconform proxy did not say where it listens: ${proxy.line}`)
    const pid = proxy.child.pid!
    let seen = 0
    let rssAtSampleMb = Number.NaN
    const started = performance.now()
    const instance = createLoad(url, server.tokens.token, options.exchanges)
    instance.on('response', () => {
      seen += 1
      if (seen === options.sampleAfter) rssAtSampleMb = memoryOf(pid).rssMb
    })
    const result = (await instance) as { requests: { total: number }; errors: number; timeouts: number; non2xx: number }
    const seconds = (performance.now() - started) / 1000
    const end = memoryOf(pid)
    return {
      seconds,
      completed: result.requests.total,
      errors: result.errors + result.timeouts + result.non2xx,
      rssAtSampleMb,
      rssAtEndMb: end.rssMb,
      peakMb: end.peakMb,
    }
  } finally {
    await proxy.stop() // SIGTERM: the proxy flushes the recording before it exits
    await server.stop()
  }
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN)
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
  } catch {
    return { rssMb: Number.NaN, peakMb: Number.NaN }
  }
}

/** autocannon: create, read, delete an activity, read the feed, read the user; `amount` requests in all. */
function createLoad(url: string, token: string, amount: number): NodeJS.EventEmitter & PromiseLike<unknown> {
  const autocannon = require('autocannon') // 9.x ships no types
  const authorization = `Bearer ${token}`
  let created = 0
  const newActivity = (): string => {
    created += 1
    return JSON.stringify({
      type: 'Running',
      equipment: 'None',
      start_time: specTime(Date.UTC(2011, 2, 1 + (created % 28), 7, created % 60)),
      notes: `bench activity ${created}`,
      path: [
        { timestamp: 0, latitude: 46.948, longitude: 7.4474, altitude: 100, type: 'start' },
        { timestamp: 600, latitude: 46.95, longitude: 7.45, altitude: 101, type: 'end' },
      ],
    })
  }
  type Context = { location?: string }
  const onActivity = (method: string) => (request: Record<string, unknown>, context: Context) => ({
    ...request,
    method,
    path: context.location ?? '/fitnessActivities/0',
  })
  return autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    amount,
    timeout: 10,
    headers: { authorization },
    requests: [
      {
        method: 'POST',
        path: '/fitnessActivities',
        headers: { authorization, 'content-type': 'application/vnd.com.service.NewFitnessActivity+json' },
        setupRequest: (request: Record<string, unknown>) => ({ ...request, body: newActivity() }),
        onResponse: (_status: number, _body: string, context: Context, headers: Record<string, string>) => {
          context.location = headers['location'] ?? headers['Location']
        },
      },
      {
        setupRequest: onActivity('GET'),
        headers: { authorization, accept: 'application/vnd.com.service.FitnessActivity+json' },
      },
      { setupRequest: onActivity('DELETE'), headers: { authorization } },
      {
        method: 'GET',
        path: '/fitnessActivities',
        headers: { authorization, accept: 'application/vnd.com.service.FitnessActivityFeed+json' },
      },
      { method: 'GET', path: '/user', headers: { authorization, accept: 'application/vnd.com.service.User+json' } },
    ],
  })
}

/** The spec's time format, `Tue, 1 Mar 2011 07:00:00`. */
function specTime(epochMs: number): string {
  const date = new Date(epochMs)
  const weekday = date.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })
  const month = date.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })
  return `${weekday}, ${date.getUTCDate()} ${month} ${date.getUTCFullYear()} ${date.toISOString().slice(11, 19)}`
}

/** Copies the first `count` lines of `from` to `to`, streaming; returns the line count of `from`. */
async function copyLines(from: string, to: string, count: number): Promise<{ total: number }> {
  const out = createWriteStream(to)
  let total = 0
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    if (total < count && !out.write(line + '\n')) await once(out, 'drain')
    total += 1
  }
  out.end()
  await once(out, 'finish')
  return { total }
}
