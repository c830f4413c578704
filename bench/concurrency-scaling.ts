/**
 * Scaling with concurrency: the built-in suite's wall time at `--concurrency` 1, 4 and 16 against a
 * reference server (own process) that adds 20 ms before every request, as a remote server would.
 *
 * What "as far as the scenario graph allows" means here: exclusive scenarios always run one at a time,
 * the others are handed in order to N workers, and no scenario can finish faster than its own steps.
 * From the concurrency-1 run (each scenario's duration, and the rest of the process: start-up, probe,
 * final sweep) the bound for N is: rest + exclusive durations + the greedy N-worker schedule of the
 * other durations. A runner that scales well lands near that bound.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadSuites } from '../src/load/load-suites.js'
import { packageRoot } from '../src/shared/package-root.js'
import { figure, type Figure } from './support/figures.js'
import { CLI, runNode, startServerProcess, temporaryFolder } from './support/processes.js'
import { greedySchedule } from './support/schedule.js'
import { round, sum } from './support/statistics.js'

export const LATENCY_MS = 20
const LEVELS = [1, 4, 16] as const

interface RunFigures {
  readonly wallMs: number
  readonly scenarioMs: ReadonlyMap<string, number>
}

export async function benchConcurrencyScaling(): Promise<Figure[]> {
  const folder = temporaryFolder('scaling')
  const suites = join(packageRoot(), 'suites')
  const exclusiveScenarios = (await loadSuites([suites])).scenarios.filter((scenario) => scenario.exclusive)
  const exclusive = new Set(exclusiveScenarios.map((scenario) => scenario.id))
  // The one-second clocks the exclusive chain waits out (issue 15): no runner can go below them.
  const declaredWaitMs = sum(exclusiveScenarios.flatMap((scenario) => scenario.steps.map((step) => step.waitMs ?? 0)))
  try {
    const runs = new Map<number, RunFigures>()
    for (const concurrency of LEVELS) runs.set(concurrency, await runSuite(concurrency, join(folder.dir, String(concurrency))))

    const sequential = runs.get(1)!
    const durations = [...sequential.scenarioMs]
    const exclusiveMs = sum(durations.filter(([id]) => exclusive.has(id)).map(([, ms]) => ms))
    const others = durations.filter(([id]) => !exclusive.has(id)).map(([, ms]) => ms)
    const restMs = sequential.wallMs - sum(durations.map(([, ms]) => ms))
    const command = `node bin/fitconform.js run --base-url <server +${LATENCY_MS} ms> <5 tokens> --concurrency N`
    const figures: Figure[] = []
    for (const concurrency of LEVELS) {
      const measured = runs.get(concurrency)!.wallMs
      const bound = restMs + exclusiveMs + greedySchedule(others, concurrency)
      figures.push(figure({ benchmark: 'concurrency', name: `suite at --concurrency ${concurrency} (+${LATENCY_MS} ms a request)`, value: round(measured / 1000), unit: 's', ...(concurrency === 1 ? { note: command } : {}) }))
      figures.push(figure({ benchmark: 'concurrency', name: `  of which the ${others.length} non-exclusive scenarios`, value: round((measured - restMs - exclusiveMs) / 1000), unit: 's', note: `${round(sum(others) / concurrency / 1000)} s if their work split evenly over ${concurrency}; the greedy schedule allows ${round(greedySchedule(others, concurrency) / 1000)} s` }))
      if (concurrency === 1) continue
      figures.push(figure({ benchmark: 'concurrency', name: `  speed-up over --concurrency 1`, value: round(sequential.wallMs / measured), unit: 'x', note: `at most ${round(sequential.wallMs / bound)}x: the scenario graph's bound` }))
      figures.push(figure({ benchmark: 'concurrency', name: `  measured / the graph's bound (${round(bound / 1000)} s)`, value: round(measured / bound), unit: '', goal: { comparison: '<=', limit: 1.1 }, note: 'goal read as "nearly in proportion": within 10% of what the graph allows' }))
    }
    figures.push(figure({ benchmark: 'concurrency', name: '  exclusive scenarios, one at a time', value: round(exclusiveMs / 1000), unit: 's', note: `${exclusive.size} scenarios; the longest other scenario takes ${round(Math.max(...others) / 1000)} s` }))
    figures.push(figure({ benchmark: 'concurrency', name: '    of which their declared waits (`wait:` steps)', value: round(declaredWaitMs / 1000), unit: 's' }))
    // With unlimited workers the run cannot beat start-up + the exclusive chain + its longest other scenario.
    const criticalPathMs = restMs + exclusiveMs + Math.max(...others)
    const widest = runs.get(LEVELS.at(-1)!)!.wallMs
    figures.push(figure({ benchmark: 'concurrency', name: `  critical path (rest ${round(restMs / 1000)} s + exclusive chain + longest other)`, value: round(criticalPathMs / 1000), unit: 's' }))
    figures.push(figure({ benchmark: 'concurrency', name: `  --concurrency ${LEVELS.at(-1)!} / critical path`, value: round(widest / criticalPathMs), unit: '', goal: { comparison: '<=', limit: 1.1 } }))
    return figures
  } finally {
    folder.remove()
  }
}

async function runSuite(concurrency: number, outputDir: string): Promise<RunFigures> {
  const server = await startServerProcess({ latencyMs: LATENCY_MS })
  try {
    const result = await runNode([CLI, 'run', '--base-url', server.url, ...server.tokenFlags, '--concurrency', String(concurrency), '--reporter', 'json', '--output-dir', outputDir])
    if (result.exitCode !== 0) throw new Error(`fitconform run --concurrency ${concurrency} exited ${result.exitCode}: ${result.stderr.slice(-800)}`)
    const report = JSON.parse(readFileSync(join(outputDir, 'results.json'), 'utf8')) as { scenarios: { id: string; durationMs: number }[] }
    return { wallMs: result.wallMs, scenarioMs: new Map(report.scenarios.map((scenario) => [scenario.id, scenario.durationMs])) }
  } finally {
    await server.stop()
  }
}
