/**
 * Flat at scale (issue 30 point 4): peak resident memory of each tool at two input sizes, ten times
 * apart, and their ratio, held to GROWTH_LIMIT (bench/recording-at-scale.ts says why not 1.0):
 *
 * - `fitconform proxy --record` over 1,000,000 exchanges (resident memory after 100,000 and at the end;
 *   the traffic of bench/recording-at-scale.ts: create, read, delete an activity, the feed, the user);
 * - `analyze`, `har` and `scaffold` over a 1,000,000-line recording and over its first 100,000 lines.
 *   The recording is made from a recorded seed (SEED_EXCHANGES through the proxy), copied with its
 *   activity ids renumbered per copy, so that every activity's flow (create, read, delete) is its own;
 * - `run` over 5,000 single-request scenarios against 500 (the throughput bench's suite), in files of 50
 *   as a suite is kept, and in one file beside it; and over 20,000 against 5,000 in files of 50: at 500
 *   the peak is mostly the process's fixed cost (code, compiler zones), so only the larger pair shows
 *   how the peak grows with the suite (docs/benchmarks.md, "`run` over 5,000 scenarios").
 *
 * Every generated file lives in a temporary folder, removed at the end. Minutes, not seconds: the
 * proxy alone records a million exchanges, so `npm run bench` runs these rows only when asked
 * (`--only scale`); `node dist/bench/memory-at-scale.js --exchanges 200000 --lines 200000` runs them
 * alone at another size, and `node dist/bench/memory-at-scale.js --only run` the `run` rows alone
 * (about a minute).
 */
import { once } from 'node:events'
import { createReadStream, createWriteStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { GROWTH_LIMIT, measureTool, record } from './recording-at-scale.js'
import { figure, type Figure } from './support/figures.js'
import { CLI, runNode, startServerProcess, temporaryFolder } from './support/processes.js'
import { round } from './support/statistics.js'
import { throughputSuite } from './throughput.js'

export const SCALE_EXCHANGES = 1_000_000
export const SCALE_LINES = 1_000_000
export const SCALE_SCENARIOS = 5_000
const SEED_EXCHANGES = 5_000

export interface ScaleOptions {
  readonly exchanges?: number
  readonly lines?: number
  readonly scenarios?: number
  /** Parts left out: 'proxy', 'tools', 'run'. */
  readonly skip?: ReadonlySet<string>
}

export async function benchMemoryAtScale(options: ScaleOptions = {}): Promise<Figure[]> {
  const folder = temporaryFolder('scale')
  const skip = options.skip ?? new Set()
  try {
    return [
      ...(skip.has('proxy') ? [] : await proxyRows(folder.dir, options.exchanges ?? SCALE_EXCHANGES)),
      ...(skip.has('tools') ? [] : await recordingToolRows(folder.dir, options.lines ?? SCALE_LINES)),
      ...(skip.has('run') ? [] : await runRows(folder.dir, options.scenarios ?? SCALE_SCENARIOS)),
    ]
  } finally {
    folder.remove()
  }
}

const growth = (name: string, value: number): Figure =>
  figure({ benchmark: 'scale', name, value: round(value), unit: 'x', goal: { comparison: '<=', limit: GROWTH_LIMIT } })

async function proxyRows(dir: string, exchanges: number): Promise<Figure[]> {
  const recording = join(dir, 'proxy.ndjson')
  const sampleAfter = exchanges / 10
  const recorded = await record({ recording, exchanges, sampleAfter })
  const size = `${round(statSync(recording).size / 1024 / 1024)} MB`
  return [
    figure({
      benchmark: 'scale',
      name: `fitconform proxy --record, resident memory after ${exchanges} exchanges`,
      value: round(recorded.rssAtEndMb),
      unit: 'MB',
      note: `${round(recorded.rssAtSampleMb)} MB after ${sampleAfter}; peak ${round(recorded.peakMb)} MB; ${recorded.completed} completed in ${round(recorded.seconds)} s, ${recorded.errors} errors; recording ${size}`,
    }),
    growth(
      `  proxy memory growth, ${exchanges} / ${sampleAfter} exchanges`,
      recorded.rssAtEndMb / recorded.rssAtSampleMb,
    ),
  ]
}

async function recordingToolRows(dir: string, lines: number): Promise<Figure[]> {
  const seed = join(dir, 'seed.ndjson')
  await record({ recording: seed, exchanges: SEED_EXCHANGES, sampleAfter: SEED_EXCHANGES })
  const large = join(dir, 'large.ndjson')
  const small = join(dir, 'small.ndjson')
  await replicate(seed, large, lines)
  await copyFirstLines(large, small, lines / 10)
  const tools: { name: string; args: (file: string, out: string) => string[] }[] = [
    { name: 'analyze', args: (file) => [CLI, 'analyze', file, '--json'] },
    { name: 'har', args: (file, out) => [CLI, 'har', file, '-o', out, '--force'] },
    { name: 'scaffold', args: (file, out) => [CLI, 'scaffold', file, '-o', out, '--force'] },
  ]
  const figures: Figure[] = []
  for (const tool of tools) {
    const few = await measureTool(tool.args(small, join(dir, `${tool.name}-small${tool.name === 'har' ? '.har' : ''}`)))
    const many = await measureTool(
      tool.args(large, join(dir, `${tool.name}-large${tool.name === 'har' ? '.har' : ''}`)),
    )
    figures.push(
      figure({
        benchmark: 'scale',
        name: `${tool.name}, peak memory over ${lines} lines`,
        value: round(many.peakRssMb),
        unit: 'MB',
        note: `node bin/fitconform.js ${tool.args('recording.ndjson', 'out').slice(1).join(' ')}; ${round(few.peakRssMb)} MB over ${lines / 10}; ${round(many.wallMs / 1000)} s and ${round(few.wallMs / 1000)} s; ${round(statSync(large).size / 1024 / 1024)} MB recording`,
      }),
      growth(`  ${tool.name} memory growth, ${lines} / ${lines / 10} lines`, many.peakRssMb / few.peakRssMb),
    )
  }
  return figures
}

/**
 * A suite as users keep one: files of SCENARIOS_PER_FILE scenarios (the row's figure), and the same
 * scenarios in one file beside it (what the loader does with one large file; a note, not the goal).
 */
const SCENARIOS_PER_FILE = 50
/** The larger pair: `scenarios × LARGER` against `scenarios`. */
const LARGER = 4

async function runRows(dir: string, scenarios: number): Promise<Figure[]> {
  const server = await startServerProcess()
  try {
    const measure = async (count: number, perFile: number): Promise<{ peakRssMb: number; wallMs: number }> => {
      const suite = join(dir, `scenarios-${count}-by-${perFile}`)
      writeSuite(suite, count, perFile)
      const result = await runNode(
        [
          CLI,
          'run',
          suite,
          '--base-url',
          server.url,
          '--token',
          server.tokens.token,
          '--output-dir',
          join(dir, `run-${count}-by-${perFile}`),
        ],
        { usage: true, timeoutMs: 600_000 },
      )
      if (result.exitCode !== 0)
        throw new Error(
          `fitconform run over ${count} scenarios exited ${result.exitCode}: ${result.stderr.slice(-800)}`,
        )
      return { peakRssMb: result.usage?.peakRssMb ?? Number.NaN, wallMs: result.wallMs }
    }
    const few = await measure(scenarios / 10, SCENARIOS_PER_FILE)
    const many = await measure(scenarios, SCENARIOS_PER_FILE)
    const fewInOne = await measure(scenarios / 10, scenarios / 10)
    const manyInOne = await measure(scenarios, scenarios)
    const most = await measure(scenarios * LARGER, SCENARIOS_PER_FILE)
    const files = (count: number): string => `${count / SCENARIOS_PER_FILE} files of ${SCENARIOS_PER_FILE}`
    // What each scenario past `scenarios` adds to the peak: the results the run keeps for its reporters, and V8's room around them.
    const perScenarioKb = ((most.peakRssMb - many.peakRssMb) * 1024) / (scenarios * LARGER - scenarios)
    return [
      figure({
        benchmark: 'scale',
        name: `run, peak memory over ${scenarios} scenarios (${files(scenarios)})`,
        value: round(many.peakRssMb),
        unit: 'MB',
        note: `node bin/fitconform.js run <folder of ${files(scenarios)} GET /user scenarios> --base-url <server> --token <t>; ${round(few.peakRssMb)} MB over ${scenarios / 10} (${files(scenarios / 10)}); ${round(many.wallMs / 1000)} s and ${round(few.wallMs / 1000)} s`,
      }),
      growth(`  run memory growth, ${scenarios} / ${scenarios / 10} scenarios`, many.peakRssMb / few.peakRssMb),
      figure({
        benchmark: 'scale',
        name: `  the same in one file: ${scenarios} / ${scenarios / 10} scenarios`,
        value: round(manyInOne.peakRssMb / fewInOne.peakRssMb),
        unit: 'x',
        note: `${round(manyInOne.peakRssMb)} MB over ${scenarios} in one file, ${round(fewInOne.peakRssMb)} MB over ${scenarios / 10}`,
      }),
      growth(`  run memory growth, ${scenarios * LARGER} / ${scenarios} scenarios`, most.peakRssMb / many.peakRssMb),
      figure({
        benchmark: 'scale',
        name: `  peak added per scenario past ${scenarios}`,
        value: round(perScenarioKb),
        unit: 'KB',
        note: `${round(most.peakRssMb)} MB over ${scenarios * LARGER} (${files(scenarios * LARGER)}), ${round(most.wallMs / 1000)} s; every scenario's result is kept until the reporters write their files`,
      }),
    ]
  } finally {
    await server.stop()
  }
}

/** `count` scenarios of the throughput suite in files of `perFile`, each id made unique by its file's number. */
function writeSuite(folder: string, count: number, perFile: number): void {
  mkdirSync(folder)
  for (let file = 0; file < count / perFile; file++) {
    const name = String(file).padStart(4, '0')
    const text = throughputSuite(perFile).replaceAll('- id: throughput-', `- id: throughput-${name}-`)
    writeFileSync(join(folder, `scenarios-${name}.yaml`), text)
  }
}

/**
 * Writes `lines` lines: the seed's lines again and again, each copy's activity ids moved past the
 * previous copy's, so that no two copies' activities share an id.
 */
export async function replicate(seed: string, to: string, lines: number): Promise<void> {
  const seedLines = readFileSync(seed, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
  if (seedLines.length === 0) throw new Error('the seed recording is empty')
  const highest = Math.max(
    0,
    ...seedLines.flatMap((line) => [...line.matchAll(ACTIVITY_ID)].map((match) => Number(match[2]))),
  )
  const out = createWriteStream(to)
  for (let written = 0; written < lines; written++) {
    const copy = Math.floor(written / seedLines.length)
    const line = seedLines[written % seedLines.length]!
    const moved =
      copy === 0
        ? line
        : line.replace(ACTIVITY_ID, (_, path: string, id: string) => `${path}${Number(id) + copy * (highest + 1)}`)
    if (!out.write(moved + '\n')) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

const ACTIVITY_ID = /(fitnessActivities\/)(\d+)/g

export async function copyFirstLines(from: string, to: string, count: number): Promise<void> {
  const out = createWriteStream(to)
  let copied = 0
  const lines = createInterface({ input: createReadStream(from), crlfDelay: Infinity })
  for await (const line of lines) {
    if (copied >= count) break
    if (!out.write(line + '\n')) await once(out, 'drain')
    copied += 1
  }
  lines.close()
  out.end()
  await once(out, 'finish')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      exchanges: { type: 'string' },
      lines: { type: 'string' },
      scenarios: { type: 'string' },
      skip: { type: 'string' },
      only: { type: 'string' },
    },
  })
  const parts = ['proxy', 'tools', 'run']
  const only = values.only?.split(',')
  const { formatTable } = await import('./support/figures.js')
  const number = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text))
  const figures = await benchMemoryAtScale({
    exchanges: number(values.exchanges),
    lines: number(values.lines),
    scenarios: number(values.scenarios),
    skip: new Set(only ? parts.filter((part) => !only.includes(part)) : (values.skip?.split(',') ?? [])),
  })
  process.stdout.write(formatTable(figures) + '\n')
  for (const each of figures) if (each.note) process.stdout.write(`${each.name.trim()}: ${each.note}\n`)
}
