/**
 * Runner overhead: the whole built-in suite as a `fitconform run` process against the reference server
 * in another process, against a plain replay of the very same HTTP requests with undici (also a whole
 * process), with the same deliberate waits in both. Each measured run gets a fresh server; suite and
 * replay alternate (and swap who goes first) so that machine noise falls on both sides alike.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { figure, type Figure } from './support/figures.js'
import { benchModule, CLI, runNode, startServerProcess, temporaryFolder } from './support/processes.js'
import type { CapturedItem, CapturedRun } from './support/captured-run.js'
import { captureSuiteRequests } from './support/request-capture.js'
import { greedySchedule } from './support/schedule.js'
import { median, round, sum } from './support/statistics.js'
import { packageRoot } from '../src/shared/package-root.js'

const RUNNER_CONCURRENCY = 4

export async function benchRunnerOverhead(options: { runs: number }): Promise<Figure[]> {
  const folder = temporaryFolder('runner')
  try {
    const captureServer = await startServerProcess()
    let captured: CapturedRun
    try {
      captured = await captureSuiteRequests(captureServer, [join(packageRoot(), 'suites')])
    } finally {
      await captureServer.stop()
    }
    const captureFile = join(folder.dir, 'capture.json')
    writeFileSync(captureFile, JSON.stringify(captured))

    const suiteMs: number[] = []
    const replayMs: number[] = []
    let mismatches = 0
    for (let run = 0; run < options.runs; run++) {
      const order = run % 2 === 0 ? (['suite', 'replay'] as const) : (['replay', 'suite'] as const)
      for (const side of order) {
        const server = await startServerProcess()
        try {
          if (side === 'suite') {
            const result = await runNode([
              CLI,
              'run',
              '--base-url',
              server.url,
              ...server.tokenFlags,
              '--concurrency',
              String(RUNNER_CONCURRENCY),
              '--output-dir',
              join(folder.dir, 'out'),
            ])
            if (result.exitCode !== 0)
              throw new Error(`fitconform run exited ${result.exitCode}: ${result.stderr.slice(-800)}`)
            suiteMs.push(result.wallMs)
          } else {
            const result = await runNode([
              benchModule('replay-requests-process.js'),
              '--capture',
              captureFile,
              '--base-url',
              server.url,
              '--concurrency',
              String(RUNNER_CONCURRENCY),
            ])
            if (result.exitCode !== 0)
              throw new Error(`the replay exited ${result.exitCode}: ${result.stderr.slice(-800)}`)
            replayMs.push(result.wallMs)
            mismatches = Math.max(
              mismatches,
              (JSON.parse(result.stdout) as { statusMismatches: number }).statusMismatches,
            )
          }
        } finally {
          await server.stop()
        }
      }
    }

    const waits = waitFigures(captured)
    const suite = median(suiteMs)
    const replay = median(replayMs)
    const requests = countRequests(captured)
    return [
      figure({
        benchmark: 'runner overhead',
        name: `built-in suite, whole process (median of ${options.runs})`,
        value: round(suite / 1000),
        unit: 's',
        samples: suiteMs.map((ms) => round(ms)),
        note: `node bin/fitconform.js run --base-url <server> <5 tokens> --concurrency ${RUNNER_CONCURRENCY}; ${captured.exclusive.length + captured.concurrent.length} scenarios, ${requests} requests`,
      }),
      figure({
        benchmark: 'runner overhead',
        name: `plain undici replay of its ${requests} requests (median of ${options.runs})`,
        value: round(replay / 1000),
        unit: 's',
        samples: replayMs.map((ms) => round(ms)),
        note: `node dist/bench/replay-requests-process.js; ${mismatches} response status(es) differ from the captured run`,
      }),
      figure({
        benchmark: 'runner overhead',
        name: 'ratio suite / replay',
        value: round(suite / replay, 3),
        unit: '',
        goal: { comparison: '<=', limit: 1.3 },
      }),
      figure({
        benchmark: 'runner overhead',
        name: 'deliberate waits, summed over scenarios',
        value: round(waits.totalMs / 1000),
        unit: 's',
        note: `${waits.count} waits (wait: and eventually polls)`,
      }),
      figure({
        benchmark: 'runner overhead',
        name: `deliberate waits on the critical path (concurrency ${RUNNER_CONCURRENCY})`,
        value: round(waits.criticalMs / 1000),
        unit: 's',
        note: 'the wall time a run would take if every request took no time',
      }),
    ]
  } finally {
    folder.remove()
  }
}

function countRequests(run: CapturedRun): number {
  const items = [
    ...run.probe,
    ...run.final,
    ...[...run.exclusive, ...run.concurrent].flatMap((scenario) => scenario.items),
  ]
  return items.filter((item) => item.kind !== 'wait').length
}

function waitMs(items: readonly CapturedItem[]): number {
  return sum(items.map((item) => (item.kind === 'wait' ? item.ms : 0)))
}

/**
 * The waits alone, scheduled as the runner schedules scenarios: exclusive ones back to back, and beside
 * them the others on `RUNNER_CONCURRENCY` workers (their writes wait for the chain, their waits do not:
 * src/execute/run-plan.ts). The replay (replay-requests-process.ts) still runs the exclusive scenarios
 * first and the others after them, as the runner did before the write gate.
 */
function waitFigures(run: CapturedRun): { totalMs: number; criticalMs: number; count: number } {
  const scenarios = [...run.exclusive, ...run.concurrent]
  const count = scenarios.flatMap((scenario) => scenario.items).filter((item) => item.kind === 'wait').length
  const exclusiveMs = sum(run.exclusive.map((scenario) => waitMs(scenario.items)))
  const concurrentMs = greedySchedule(
    run.concurrent.map((scenario) => waitMs(scenario.items)),
    RUNNER_CONCURRENCY,
  )
  return {
    totalMs: sum(scenarios.map((scenario) => waitMs(scenario.items))),
    criticalMs: Math.max(exclusiveMs, concurrentMs),
    count,
  }
}
