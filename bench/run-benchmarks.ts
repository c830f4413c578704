/**
 * `npm run bench` (issue 8): every benchmark in turn, one table on stdout, then the peers table (Step CI
 * on the 500-test workload, mitmdump recording the proxy's traffic: each timed beside fitconform in
 * the same run, as ratios, issue 15 item 4), reports/bench.json.
 *
 *   node dist/bench/run-benchmarks.js [--only throughput,suite,runner,concurrency,proxy,recording,network,scale] [--runs 3]
 *                                     [--json reports/bench.json]
 *
 * Loopback only: every server is ours, started on 127.0.0.1 port 0 and stopped at the end. Bounded:
 * about four to five minutes on 2 cores, most of it the suite's own deliberate waits (runner,
 * concurrency) and the 100,000 recorded exchanges. Not part of `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { benchConcurrencyScaling } from './concurrency-scaling.js'
import { benchEmbeddedSuite } from './embedded-suite.js'
import { benchMemoryAtScale } from './memory-at-scale.js'
import { benchNetworkLatency } from './network-latency.js'
import { benchProxyRecordingCost } from './proxy-recording-cost.js'
import { benchRecordingAtScale } from './recording-at-scale.js'
import { benchRunnerOverhead } from './runner-overhead.js'
import { figure, formatTable, type Figure } from './support/figures.js'
import { PROJECT_ROOT } from './support/processes.js'
import { round } from './support/statistics.js'
import { benchThroughput } from './throughput.js'

interface Benchmark {
  readonly name: string
  readonly title: string
  readonly run: (runs: number) => Promise<Figure[]>
  /** Run only when named in --only (the scale rows take about 35 minutes). */
  readonly onlyWhenAsked?: boolean
}

const BENCHMARKS: readonly Benchmark[] = [
  {
    name: 'throughput',
    title: '500 single-request scenarios, whole process',
    run: (runs) => benchThroughput({ runs: Math.max(runs, 5) }),
  },
  {
    name: 'suite',
    title: 'default suite against the embedded server, whole process',
    run: (runs) => benchEmbeddedSuite({ runs }),
  },
  { name: 'runner', title: 'runner overhead against a plain replay', run: (runs) => benchRunnerOverhead({ runs }) },
  {
    name: 'concurrency',
    title: 'scaling with --concurrency, 20 ms server latency',
    run: () => benchConcurrencyScaling(),
  },
  {
    name: 'proxy',
    title: 'proxy overhead (bench/proxy-recording-cost.ts)',
    run: () => benchProxyRecordingCost({ durationSeconds: 3 }),
  },
  { name: 'recording', title: 'recording at scale: record, analyze, scaffold', run: () => benchRecordingAtScale() },
  {
    name: 'network',
    title: 'the suite behind 50 ms each way, --concurrency 1, 4, 16, beside its critical path',
    run: () => benchNetworkLatency(),
  },
  {
    name: 'scale',
    title:
      'peak memory at scale: proxy over 1,000,000 exchanges, analyze/har/scaffold over 1,000,000 lines, run over 5,000 scenarios (--only scale)',
    run: () => benchMemoryAtScale(),
    onlyWhenAsked: true,
  },
]

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    runs: { type: 'string', default: '3' },
    json: { type: 'string', default: join(PROJECT_ROOT, 'reports', 'bench.json') },
  },
})
const only = values.only?.split(',').map((name) => name.trim())
const unknown = only?.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name)) ?? []
if (unknown.length > 0) {
  process.stderr.write(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}\n`,
  )
  process.exit(2)
}
const runs = Number(values.runs)
const selected = BENCHMARKS.filter((each) => (only ? only.includes(each.name) : !each.onlyWhenAsked))
for (const each of only ? [] : BENCHMARKS.filter((benchmark) => benchmark.onlyWhenAsked))
  process.stderr.write(`bench: ${each.name} not run: ${each.title}; run it with --only ${each.name}\n`)

const startedAt = new Date()
const loadBefore = loadavg()
const figures: Figure[] = []
const timings: Record<string, number> = {}
const failures: { benchmark: string; error: string }[] = []
for (const benchmark of selected) {
  process.stderr.write(`bench: ${benchmark.name}: ${benchmark.title} …\n`)
  const started = performance.now()
  try {
    figures.push(...(await benchmark.run(runs)))
  } catch (error) {
    // One broken benchmark must not hide the others' figures.
    const message = error instanceof Error ? error.message : String(error)
    failures.push({ benchmark: benchmark.name, error: message })
    figures.push(
      figure({ benchmark: benchmark.name, name: `FAILED: ${message.split('\n')[0]}`, value: Number.NaN, unit: '' }),
    )
  }
  timings[benchmark.name] = round((performance.now() - started) / 1000, 1)
}

// Peers get a table of their own: their rows are ratios to fitconform taken in the same run.
const peers = figures.filter((each) => each.benchmark === 'peers')
process.stdout.write(formatTable(figures.filter((each) => each.benchmark !== 'peers')) + '\n')
if (peers.length > 0) process.stdout.write(`\npeers, each beside fitconform in the same run:\n${formatTable(peers)}\n`)
const missed = figures.filter((each) => each.met === false)
const loadAfter = loadavg()
process.stdout.write(
  `\n${figures.filter((each) => each.met === true).length} goal(s) met, ${missed.length} missed${failures.length > 0 ? `, ${failures.length} benchmark(s) failed` : ''}; commands, samples and notes in ${relative(process.cwd(), values.json) || values.json}\n`,
)
// Wall times on a machine that other work keeps busy are slower: say how busy it was.
process.stdout.write(
  `load average ${round(loadBefore[0]!)} before, ${round(loadAfter[0]!)} after, on ${cpus().length} CPUs\n`,
)

const report = {
  schemaVersion: 1,
  startedAt: startedAt.toISOString(),
  benchmarks: selected.map((each) => each.name),
  durationSeconds: timings,
  machine: {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadAverageBefore: loadBefore.map((each) => round(each)),
    loadAverageAfter: loadAfter.map((each) => round(each)),
  },
  figures,
  failures,
}
mkdirSync(dirname(values.json), { recursive: true })
writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n')
process.exitCode = failures.length > 0 ? 1 : 0
