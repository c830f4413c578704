/**
 * Scaling with concurrency: the built-in suite's wall time at `--concurrency` 1, 4 and 16 against a
 * reference server (own process) that adds 20 ms before every request, as a remote server would.
 *
 * What "as far as the scenario graph allows" means here: exclusive scenarios always run one at a time
 * with nothing of ours writing meanwhile; with N > 1 the others run beside them, their writes held at a
 * gate, so what they spend waiting on a clock can pass during the exclusive chain but their own work
 * cannot; and no scenario can finish faster than its own steps. From the concurrency-1 run (each
 * scenario's duration, the part of it spent in clock-wait steps, and the rest of the process: start-up,
 * probe, final sweep) the bound for N is: rest + exclusive durations + the greedy N-worker schedule of
 * the others' durations without their clock waits. A runner that scales well lands near that bound.
 *
 * The exclusive chain's clock waits are taken from the run at N itself, its work from the run at 1.
 * Each wait lasts until the server's next second, so how long it takes depends on where in the second
 * it starts: over the chain's waits that is ±0.5 s from one run to the next, noise of the clock, not
 * of the runner, which made the ratios below swing between 0.94 and 1.13 at the same code.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadSuites } from '../src/load/load-suites.js'
import { packageRoot } from '../src/shared/package-root.js'
import { figure, type Figure } from './support/figures.js'
import { CLI, runNode, startServerProcess, temporaryFolder, type ServerProcess } from './support/processes.js'
import { greedySchedule } from './support/schedule.js'
import { round, sum } from './support/statistics.js'

export const LATENCY_MS = 20
const LEVELS = [1, 4, 16] as const
/** The survey's first scenario: its walk of the feed and the reads that pick the sample. */
const SURVEY_OVERVIEW = 'survey-account'

interface RunFigures {
  readonly wallMs: number
  readonly scenarioMs: ReadonlyMap<string, number>
  /** Per scenario, the time its clock-wait steps took (wait:, untilServerDateAfter). */
  readonly clockMs: ReadonlyMap<string, number>
}

/** Where the suite runs: a server (fresh store per run), its description in figure names, the goal. */
export interface ScalingSetting {
  readonly benchmark: string
  /** e.g. `+20 ms a request`. */
  readonly latency: string
  readonly startServer: () => Promise<Pick<ServerProcess, 'url' | 'tokenFlags' | 'stop'>>
  /** `--concurrency 16` / critical path (and measured / the graph's bound) held to this. */
  readonly criticalPathLimit: number
}

const SERVER_LATENCY: ScalingSetting = {
  benchmark: 'concurrency',
  latency: `+${LATENCY_MS} ms a request`,
  startServer: () => startServerProcess({ latencyMs: LATENCY_MS }),
  criticalPathLimit: 1.1,
}

export async function benchConcurrencyScaling(setting: ScalingSetting = SERVER_LATENCY): Promise<Figure[]> {
  const { benchmark } = setting
  const folder = temporaryFolder(`scaling-${benchmark.replace(/\W+/g, '-')}`)
  const suites = join(packageRoot(), 'suites')
  const scenarios = (await loadSuites([suites])).scenarios
  const exclusive = new Set(scenarios.filter((scenario) => scenario.exclusive).map((scenario) => scenario.id))
  // Steps that wait on a clock: a fixed `wait:`, or a read resent until the server's Date moves on.
  const clockSteps = new Map(
    scenarios.map((scenario) => [
      scenario.id,
      new Set(
        scenario.steps
          .filter((step) => step.waitMs || step.untilServerDateAfter !== undefined)
          .map((step) => step.name),
      ),
    ]),
  )
  try {
    const runs = new Map<number, RunFigures>()
    for (const concurrency of LEVELS)
      runs.set(
        concurrency,
        await runSuite({
          concurrency,
          outputDir: join(folder.dir, String(concurrency)),
          clockSteps,
          startServer: setting.startServer,
        }),
      )

    const sequential = runs.get(1)!
    const durations = [...sequential.scenarioMs]
    // The one-second clocks the exclusive chain waits out (issue 15): no runner can go below them.
    const chainClockMs = (run: RunFigures): number => sum([...exclusive].map((id) => run.clockMs.get(id) ?? 0))
    const chainWorkMs =
      sum(durations.filter(([id]) => exclusive.has(id)).map(([, ms]) => ms)) - chainClockMs(sequential)
    const exclusiveMs = (run: RunFigures): number => chainWorkMs + chainClockMs(run)
    // The account survey (docs/account-survey.md) is not in suites/: it runs before any scenario, its
    // overview (a walk of the feed by its links, then reads of the candidates) and then its check
    // classes, at most N at once. Its overview is taken from the run at N itself, its checks from the run at 1.
    const suiteIds = new Set(scenarios.map((scenario) => scenario.id))
    const surveyChecks = durations.filter(([id]) => !suiteIds.has(id) && id !== SURVEY_OVERVIEW).map(([, ms]) => ms)
    const surveyMs = (run: RunFigures, concurrency: number): number =>
      (run.scenarioMs.get(SURVEY_OVERVIEW) ?? 0) + greedySchedule(surveyChecks, concurrency)
    const otherIds = durations.filter(([id]) => !exclusive.has(id) && suiteIds.has(id))
    const others = otherIds.map(([, ms]) => ms)
    const othersWork = otherIds.map(([id, ms]) => ms - (sequential.clockMs.get(id) ?? 0))
    const restMs = sequential.wallMs - sum(durations.map(([, ms]) => ms))
    const command = `node bin/fitconform.js run --base-url <server ${setting.latency}> <5 tokens> --concurrency N`
    const figures: Figure[] = []
    for (const concurrency of LEVELS) {
      const run = runs.get(concurrency)!
      const measured = run.wallMs
      const bound =
        restMs +
        surveyMs(run, concurrency) +
        exclusiveMs(run) +
        (concurrency === 1 ? sum(others) : greedySchedule(othersWork, concurrency))
      figures.push(
        figure({
          benchmark,
          name: `suite at --concurrency ${concurrency} (${setting.latency})`,
          value: round(measured / 1000),
          unit: 's',
          note: concurrency === 1 ? command : undefined,
        }),
      )
      figures.push(
        figure({
          benchmark,
          name: `  of which beyond start-up, the survey and the exclusive chain (${others.length} other scenarios)`,
          value: round((measured - restMs - surveyMs(run, concurrency) - exclusiveMs(run)) / 1000),
          unit: 's',
          note: `their work without clock waits: ${round(sum(othersWork) / concurrency / 1000)} s if split evenly over ${concurrency}; the greedy schedule allows ${round(greedySchedule(othersWork, concurrency) / 1000)} s; the chain's clock waits in this run: ${round(chainClockMs(run) / 1000)} s`,
        }),
      )
      if (concurrency === 1) continue
      figures.push(
        figure({
          benchmark,
          name: `  speed-up over --concurrency 1`,
          value: round(sequential.wallMs / measured),
          unit: 'x',
          note: `at most ${round(sequential.wallMs / bound)}x: the scenario graph's bound`,
        }),
      )
      figures.push(
        figure({
          benchmark,
          name: `  measured / the graph's bound (${round(bound / 1000)} s)`,
          value: round(measured / bound),
          unit: '',
          goal: { comparison: '<=', limit: setting.criticalPathLimit },
          note: `goal read as "nearly in proportion": within ${Math.round((setting.criticalPathLimit - 1) * 100)}% of what the graph allows`,
        }),
      )
    }
    const widestRun = runs.get(LEVELS.at(-1)!)!
    figures.push(
      figure({
        benchmark,
        name: `  exclusive scenarios, one at a time (--concurrency ${LEVELS.at(-1)!})`,
        value: round(exclusiveMs(widestRun) / 1000),
        unit: 's',
        note: `${exclusive.size} scenarios; the longest other scenario takes ${round(Math.max(...others) / 1000)} s`,
      }),
    )
    figures.push(
      figure({
        benchmark,
        name: "    of which waiting on the server's clock (wait:, untilServerDateAfter steps)",
        value: round(chainClockMs(widestRun) / 1000),
        unit: 's',
        note: `at --concurrency 1: ${round(chainClockMs(sequential) / 1000)} s`,
      }),
    )
    // With unlimited workers the run cannot beat start-up + the exclusive chain + the longest other
    // scenario's own work (its clock waits can pass during the chain), nor start-up + the longest other.
    figures.push(
      figure({
        benchmark,
        name: `  the account survey, before any scenario (--concurrency ${LEVELS.at(-1)!})`,
        value: round(
          (widestRun.scenarioMs.get(SURVEY_OVERVIEW) ?? 0) / 1000 +
            Math.max(
              0,
              ...[...widestRun.scenarioMs]
                .filter(([id]) => !suiteIds.has(id) && id !== SURVEY_OVERVIEW)
                .map(([, ms]) => ms),
            ) /
              1000,
        ),
        unit: 's',
        note: `its walk and candidate reads ${round((widestRun.scenarioMs.get(SURVEY_OVERVIEW) ?? 0) / 1000)} s, then ${surveyChecks.length} check classes (the longest alone: ${round(Math.max(0, ...surveyChecks) / 1000)} s); at --concurrency 1 the survey took ${round(surveyMs(sequential, 1) / 1000)} s`,
      }),
    )
    const criticalPathMs =
      restMs +
      surveyMs(widestRun, Number.POSITIVE_INFINITY) +
      Math.max(exclusiveMs(widestRun) + Math.max(...othersWork), Math.max(...others))
    const widest = widestRun.wallMs
    figures.push(
      figure({
        benchmark,
        name: `  critical path (rest ${round(restMs / 1000)} s + survey + exclusive chain + longest other's work)`,
        value: round(criticalPathMs / 1000),
        unit: 's',
      }),
    )
    figures.push(
      figure({
        benchmark,
        name: `  --concurrency ${LEVELS.at(-1)!} / critical path`,
        value: round(widest / criticalPathMs),
        unit: '',
        goal: { comparison: '<=', limit: setting.criticalPathLimit },
      }),
    )
    return figures
  } finally {
    folder.remove()
  }
}

async function runSuite(options: {
  concurrency: number
  outputDir: string
  clockSteps: ReadonlyMap<string, ReadonlySet<string>>
  startServer: ScalingSetting['startServer']
}): Promise<RunFigures> {
  const { concurrency, outputDir, clockSteps } = options
  const server = await options.startServer()
  try {
    const result = await runNode(
      [
        CLI,
        'run',
        '--base-url',
        server.url,
        ...server.tokenFlags,
        '--concurrency',
        String(concurrency),
        '--reporter',
        'json',
        '--output-dir',
        outputDir,
      ],
      { timeoutMs: 600_000 },
    )
    if (result.exitCode !== 0)
      throw new Error(
        `fitconform run --concurrency ${concurrency} exited ${result.exitCode}: ${result.stderr.slice(-800)}`,
      )
    const report = JSON.parse(readFileSync(join(outputDir, 'results.json'), 'utf8')) as {
      scenarios: { id: string; durationMs: number; steps: { name: string; durationMs: number }[] }[]
    }
    const clockMs = (scenario: (typeof report.scenarios)[number]): number =>
      sum(scenario.steps.filter((step) => clockSteps.get(scenario.id)?.has(step.name)).map((step) => step.durationMs))
    return {
      wallMs: result.wallMs,
      scenarioMs: new Map(report.scenarios.map((scenario) => [scenario.id, scenario.durationMs])),
      clockMs: new Map(report.scenarios.map((scenario) => [scenario.id, clockMs(scenario)])),
    }
  } finally {
    await server.stop()
  }
}
