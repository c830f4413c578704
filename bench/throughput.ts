/**
 * Throughput without waits: 500 single-request scenarios (GET /user, a status check and a JSON path
 * check) in one generated YAML file, run end to end as a whole `fitconform run` process against the
 * reference server in another process. Beside it, what the process spends before it does anything
 * (`fitconform --version`), the run itself (`durationMs` of results.json) and the 500 requests alone
 * sent with undici (no parsing, no checks), so a slow total can be traced to its part. Its peer, Step CI
 * 2.8.2 running the same 500 tests as a whole process too, is timed in the same loop, run for run, so
 * that the ratio of the two holds however busy the machine is; the ratio of their CPU times is printed
 * too, as other processes on a shared machine disturb it far less than wall time. In the same rounds,
 * each speed-up beside its plain way (the `speed-ups` rows): the file read by each YAML reader and judged
 * by each scenario-schema validator, cold, and the CLI bundled and as tsc wrote it.
 */
import { writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { figure, type Figure } from './support/figures.js'
import { benchModule, CLI, PLAIN_CLI, runNode, startServerProcess, temporaryFolder } from './support/processes.js'
import { median, round } from './support/statistics.js'
import { installStepCi, STEP_CI_VERSION, stepCiRun, stepCiWorkflow, type StepCiInstall } from './support/step-ci.js'

export const THROUGHPUT_SCENARIOS = 500

/** `scenarios:` with `count` copies of one GET /user scenario (ten lines each). */
export function throughputSuite(count: number): string {
  const lines = ['scenarios:']
  for (let index = 1; index <= count; index++) {
    lines.push(
      `  - id: throughput-${String(index).padStart(4, '0')}`,
      '    title: GET /user answers 200 with a numeric userID',
      '    rules: [USER-READ]',
      '    steps:',
      '      - name: read the entry point',
      '        request: { method: GET, url: /user }',
      '        expect:',
      '          status: 200',
      '          checks:',
      '            - { path: body.userID, type: integer }',
    )
  }
  return lines.join('\n') + '\n'
}

export async function benchThroughput(options: { runs: number }): Promise<Figure[]> {
  const folder = temporaryFolder('throughput')
  const suite = join(folder.dir, 'throughput.yaml')
  writeFileSync(suite, throughputSuite(THROUGHPUT_SCENARIOS))
  const stepCi = await installStepCi()
  const server = await startServerProcess()
  try {
    const workflow = join(folder.dir, 'stepci.yml')
    writeFileSync(workflow, stepCiWorkflow(THROUGHPUT_SCENARIOS, server.url, server.tokens.token))
    const peerRun = 'entry' in stepCi ? stepCiRun(stepCi.entry, workflow) : undefined
    const peer: number[] = []
    const peerCpu: number[] = []
    const args = [
      CLI,
      'run',
      suite,
      '--base-url',
      server.url,
      '--token',
      server.tokens.token,
      '--output-dir',
      join(folder.dir, 'out'),
    ]
    const versions: number[] = []
    const totals: number[] = []
    const cpu: number[] = []
    const inRun: number[] = []
    const requestsAlone: number[] = []
    const speedUps = newSpeedUpTimes()
    // Interleaved, so that a noisy moment of the machine touches every figure alike.
    for (let run = 0; run < options.runs; run++) {
      versions.push((await runNode([CLI, '--version'])).wallMs)
      const whole = await runNode(args, { usage: true })
      if (whole.exitCode !== 0)
        throw new Error(`fitconform run exited ${whole.exitCode}: ${whole.stderr.slice(0, 500)}`)
      totals.push(whole.wallMs)
      cpu.push(whole.usage?.cpuMs ?? Number.NaN)
      inRun.push(
        (JSON.parse(readFileSync(join(folder.dir, 'out', 'results.json'), 'utf8')) as { durationMs: number })
          .durationMs,
      )
      requestsAlone.push(await sendRequestsAlone(server.url, server.tokens.token, THROUGHPUT_SCENARIOS))
      await timeSpeedUps(speedUps, suite, args.slice(1))
      if (peerRun) {
        const stepCiRunResult = await runNode(peerRun.args, { env: peerRun.env, usage: true })
        if (stepCiRunResult.exitCode !== 0)
          throw new Error(`Step CI exited ${stepCiRunResult.exitCode}: ${stepCiRunResult.stdout.slice(-500)}`)
        peer.push(stepCiRunResult.wallMs)
        peerCpu.push(stepCiRunResult.usage?.cpuMs ?? Number.NaN)
      }
    }
    const total = median(totals)
    const command = `node bin/fitconform.js run throughput.yaml --base-url <server> --token <token> --output-dir <tmp>`
    return [
      figure({
        benchmark: 'throughput',
        name: `${THROUGHPUT_SCENARIOS} GET /user scenarios, whole process (median of ${options.runs})`,
        value: round(total / 1000),
        unit: 's',
        goal: { comparison: '<', limit: 1 },
        samples: totals.map((ms) => round(ms)),
        note: `${command}; fastest ${round(Math.min(...totals) / 1000)} s`,
      }),
      figure({
        benchmark: 'throughput',
        name: '  CPU time of that process, all threads',
        value: round(median(cpu) / 1000),
        unit: 's',
        samples: cpu.map((ms) => round(ms)),
      }),
      figure({
        benchmark: 'throughput',
        name: '  of which start-up (fitconform --version)',
        value: round(median(versions) / 1000),
        unit: 's',
        samples: versions.map((ms) => round(ms)),
      }),
      figure({
        benchmark: 'throughput',
        name: '  of which the run (results.json durationMs)',
        value: round(median(inRun) / 1000),
        unit: 's',
        samples: inRun,
      }),
      figure({
        benchmark: 'throughput',
        name: '  the same 500 requests alone (undici, 4 at once)',
        value: round(median(requestsAlone) / 1000),
        unit: 's',
        samples: requestsAlone.map((ms) => round(ms)),
      }),
      figure({
        benchmark: 'throughput',
        name: 'scenarios per second, whole process',
        value: Math.round(THROUGHPUT_SCENARIOS / (total / 1000)),
        unit: '/s',
      }),
      ...speedUpFigures(speedUps, total),
      ...peerFigures(stepCi, { wall: totals, cpu }, { wall: peer, cpu: peerCpu }),
    ]
  } finally {
    await server.stop()
    folder.remove()
  }
}

const YAML_READERS = ['fitconform', 'yaml', 'js-yaml'] as const
const VALIDATORS = ['compiled', 'ajv'] as const
const CLIS = { bundle: CLI, plain: PLAIN_CLI } as const

interface CliTimes {
  readonly version: number[]
  readonly run: number[]
  readonly runCpu: number[]
}

/** Each speed-up beside its plain way, in ms: a part of loading the workload's file, or the whole CLI process. */
interface SpeedUpTimes {
  readonly readers: Record<(typeof YAML_READERS)[number], number[]>
  readonly validators: Record<(typeof VALIDATORS)[number], number[]>
  /** bin/fitconform.js (the bundle and its code cache) and dist/src/cli/main.js as tsc wrote it. */
  readonly clis: Record<keyof typeof CLIS, CliTimes>
}

function newSpeedUpTimes(): SpeedUpTimes {
  return {
    readers: { fitconform: [], yaml: [], 'js-yaml': [] },
    validators: { compiled: [], ajv: [] },
    clis: { bundle: { version: [], run: [], runCpu: [] }, plain: { version: [], run: [], runCpu: [] } },
  }
}

/**
 * One round of every speed-up and its plain way, one after the other; the two CLIs take turns going
 * first, so that neither always follows the same work.
 */
async function timeSpeedUps(times: SpeedUpTimes, suite: string, runArgs: readonly string[]): Promise<void> {
  const part = async (option: string, way: string): Promise<number> => {
    const child = await runNode([benchModule('load-scenario-file-process.js'), option, way, suite])
    if (child.exitCode !== 0)
      throw new Error(`${option} ${way} exited ${child.exitCode}: ${child.stderr.slice(0, 500)}`)
    const { ms, scenarios } = JSON.parse(child.stdout) as { ms: number; scenarios: number }
    if (scenarios !== THROUGHPUT_SCENARIOS) throw new Error(`${option} ${way} read ${scenarios} scenarios`)
    return ms
  }
  for (const reader of YAML_READERS) times.readers[reader].push(await part('--reader', reader))
  for (const validator of VALIDATORS) times.validators[validator].push(await part('--validator', validator))
  const ways = Object.keys(CLIS) as (keyof typeof CLIS)[]
  for (const way of times.clis.bundle.run.length % 2 === 0 ? ways : ways.reverse()) {
    const cli = times.clis[way]
    cli.version.push((await runNode([CLIS[way], '--version'])).wallMs)
    const run = await runNode([CLIS[way], ...runArgs], { usage: true })
    if (run.exitCode !== 0) throw new Error(`${CLIS[way]} run exited ${run.exitCode}: ${run.stderr.slice(0, 500)}`)
    cli.run.push(run.wallMs)
    cli.runCpu.push(run.usage?.cpuMs ?? Number.NaN)
  }
}

/**
 * A row per speed-up: its plain way, then the speed-up, then the gain on the whole 500-test process
 * (the throughput row). A gain within the spread of the whole run's samples is noise.
 */
function speedUpFigures(times: SpeedUpTimes, wholeRunMs: number): Figure[] {
  const row = (name: string, samples: readonly number[], note: string): Figure =>
    figure({
      benchmark: 'speed-ups',
      name,
      value: round(median(samples)),
      unit: 'ms',
      samples: samples.map((ms) => round(ms)),
      note,
    })
  const gain = (name: string, plain: readonly number[], fast: readonly number[]): Figure =>
    figure({
      benchmark: 'speed-ups',
      name,
      value: round((100 * (median(plain) - median(fast))) / wholeRunMs, 1),
      unit: '% of the run',
      note: `median ${round(median(plain) - median(fast))} ms of the ${round(wholeRunMs)} ms whole-process run`,
    })
  const reading = 'cold process, from loading the reader to the plain data of the 500-test file'
  const judging = 'cold process, from loading the validator to its verdict on the 500-test file'
  const { bundle, plain } = times.clis
  const runCommand = 'run throughput.yaml --base-url <server> --token <token> --output-dir <tmp>'
  return [
    row('YAML: `yaml` alone (parseDocument + toJS, with places)', times.readers.yaml, reading),
    row('YAML: `js-yaml` 5 (data only, no places)', times.readers['js-yaml'], reading),
    row('YAML: the quick reader (src/load/fast-yaml.ts, with places)', times.readers.fitconform, reading),
    gain('  the quick reader over `yaml`, gain', times.readers.yaml, times.readers.fitconform),
    row('scenario schema: Ajv compiling at run time', times.validators.ajv, judging),
    row('scenario schema: build-time validator (dist/validators/)', times.validators.compiled, judging),
    gain('  the build-time validator over Ajv, gain', times.validators.ajv, times.validators.compiled),
    row('start-up, plain dist/src CLI', plain.version, 'node dist/src/cli/main.js --version'),
    row('start-up, bundle + code cache', bundle.version, 'node bin/fitconform.js --version'),
    row('500-test run, plain dist/src CLI', plain.run, `node dist/src/cli/main.js ${runCommand}`),
    row('500-test run, bundle + code cache', bundle.run, `node bin/fitconform.js ${runCommand}`),
    gain('  the bundle over plain dist/src, 500-test run, gain', plain.run, bundle.run),
    row('  CPU time of the plain run', plain.runCpu, 'all threads'),
    row('  CPU time of the bundled run', bundle.runCpu, 'all threads'),
  ]
}

interface ProcessTimes {
  readonly wall: readonly number[]
  readonly cpu: readonly number[]
}

/** The peers table's Step CI rows: its median wall and CPU time and ours over them, or why it did not run. */
function peerFigures(stepCi: StepCiInstall, ours: ProcessTimes, theirs: ProcessTimes): Figure[] {
  const name = `Step CI ${STEP_CI_VERSION}, the same ${THROUGHPUT_SCENARIOS} tests, whole process`
  if ('missing' in stepCi)
    return [figure({ benchmark: 'peers', name, value: Number.NaN, unit: 's', note: stepCi.missing })]
  const command = `STEPCI_DISABLE_ANALYTICS=1 node <tmp>/node_modules/stepci/dist/index.js run stepci.yml (its default: all tests at once)`
  return [
    figure({
      benchmark: 'peers',
      name: `${name} (median of ${theirs.wall.length})`,
      value: round(median(theirs.wall) / 1000),
      unit: 's',
      samples: theirs.wall.map((ms) => round(ms)),
      note: command,
    }),
    figure({
      benchmark: 'peers',
      name: '  its CPU time, all threads',
      value: round(median(theirs.cpu) / 1000),
      unit: 's',
      samples: theirs.cpu.map((ms) => round(ms)),
    }),
    figure({
      benchmark: 'peers',
      name: `  fitconform / Step CI, wall time, same run`,
      value: round(median(ours.wall) / median(theirs.wall)),
      unit: '',
      goal: { comparison: '<=', limit: 0.33 },
      note: 'medians of runs interleaved one for one',
    }),
    figure({
      benchmark: 'peers',
      name: `  fitconform / Step CI, CPU time, same run`,
      value: round(median(ours.cpu) / median(theirs.cpu)),
      unit: '',
      note: 'medians of runs interleaved one for one; CPU time is what a busy machine disturbs least',
    }),
  ]
}

/** The requests of the workload with nothing else: undici, keep-alive, 4 in flight like the runner's default. */
async function sendRequestsAlone(baseUrl: string, token: string, count: number): Promise<number> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 })
  const started = performance.now()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++
      const response = await request(`${baseUrl}/user`, { headers: { authorization: `Bearer ${token}` }, dispatcher })
      await response.body.arrayBuffer()
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  const elapsed = performance.now() - started
  await dispatcher.close()
  return elapsed
}
