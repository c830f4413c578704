/**
 * The default suite against the embedded reference server, as a user runs it with no server of their
 * own (issue 15: ≤ 6 s, median of ≥ 3 runs, on 2 cores): `node bin/fitconform.js run`, default
 * reporters, timed from spawn to exit. From each run's results.json it also splits the wall time along
 * the run's critical path: the process outside the run (start-up, loading, embedded server, reports,
 * exit), the exclusive chain (one at a time, nothing of ours writing meanwhile) and, inside it, the
 * steps that wait on the server's clock, and the rest of the run (what comes before the chain starts
 * and after it ends: the other scenarios' writes, held at the write gate while the chain runs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadSuites } from '../src/load/load-suites.js'
import { packageRoot } from '../src/shared/package-root.js'
import { figure, type Figure } from './support/figures.js'
import { CLI, runNode, temporaryFolder } from './support/processes.js'
import { median, round, sum } from './support/statistics.js'

export const EMBEDDED_SUITE_GOAL_S = 6

interface ReportedRun {
  readonly durationMs: number
  readonly scenarios: readonly {
    id: string
    durationMs: number
    steps: readonly { name: string; durationMs: number }[]
  }[]
}

interface RunSplit {
  readonly wallMs: number
  readonly runMs: number
  readonly chainMs: number
  readonly chainClockMs: number
}

export async function benchEmbeddedSuite(options: { runs: number }): Promise<Figure[]> {
  const runs = Math.max(3, options.runs)
  const { scenarios } = await loadSuites([join(packageRoot(), 'suites')])
  const exclusive = new Set(scenarios.filter((scenario) => scenario.exclusive).map((scenario) => scenario.id))
  // Steps that wait on a clock: a fixed `wait:` or a read resent until the server's Date moves on.
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
  const folder = temporaryFolder('embedded-suite')
  try {
    const splits: RunSplit[] = []
    for (let run = 0; run < runs; run++) {
      const outputDir = join(folder.dir, String(run))
      const result = await runNode([CLI, 'run', '--output-dir', outputDir])
      if (result.exitCode !== 0)
        throw new Error(`fitconform run (embedded server) exited ${result.exitCode}: ${result.stderr.slice(-800)}`)
      const report = JSON.parse(readFileSync(join(outputDir, 'results.json'), 'utf8')) as ReportedRun
      const chain = report.scenarios.filter((scenario) => exclusive.has(scenario.id))
      const chainClockMs = sum(
        chain.flatMap((scenario) =>
          scenario.steps.filter((step) => clockSteps.get(scenario.id)?.has(step.name)).map((step) => step.durationMs),
        ),
      )
      splits.push({
        wallMs: result.wallMs,
        runMs: report.durationMs,
        chainMs: sum(chain.map((scenario) => scenario.durationMs)),
        chainClockMs,
      })
    }
    const middle = (pick: (split: RunSplit) => number): number => median(splits.map(pick))
    const wallMs = middle((split) => split.wallMs)
    const outsideMs = middle((split) => split.wallMs - split.runMs)
    const chainMs = middle((split) => split.chainMs)
    const restMs = middle((split) => split.runMs - split.chainMs)
    return [
      figure({
        benchmark: 'embedded suite',
        name: `default suite, embedded server, whole process (median of ${runs})`,
        value: round(wallMs / 1000),
        unit: 's',
        samples: splits.map((split) => round(split.wallMs)),
        goal: { comparison: '<=', limit: EMBEDDED_SUITE_GOAL_S },
        note: `node bin/fitconform.js run --output-dir <tmp> (default reporters); ${scenarios.length} scenarios`,
      }),
      figure({
        benchmark: 'embedded suite',
        name: '  critical path: outside the run (start-up, loading, embedded server, reports, exit)',
        value: round(outsideMs / 1000),
        unit: 's',
        note: 'wall time minus results.json durationMs (preflight to final sweep)',
      }),
      figure({
        benchmark: 'embedded suite',
        name: `  critical path: the exclusive chain (${exclusive.size} scenarios, one at a time)`,
        value: round(chainMs / 1000),
        unit: 's',
        samples: splits.map((split) => round(split.chainMs)),
      }),
      figure({
        benchmark: 'embedded suite',
        name: "    of which waiting on the server's clock (untilServerDateAfter, wait:)",
        value: round(middle((split) => split.chainClockMs) / 1000),
        unit: 's',
        note: "four one-second gaps: 3 s plus the first one's phase (docs/benchmarks.md)",
      }),
      figure({
        benchmark: 'embedded suite',
        name: '  critical path: the rest of the run (before the chain starts, after it ends)',
        value: round(restMs / 1000),
        unit: 's',
        note: "the others' writes before their clock waits, and those the write gate held while the chain ran",
      }),
    ]
  } finally {
    folder.remove()
  }
}
