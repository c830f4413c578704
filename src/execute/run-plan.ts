import type { Scenario } from '../model/scenario.js'
import type { ReportedScenarioResult } from '../model/reported-result.js'
import type { ScenarioResult } from '../model/result.js'
import type { Reporter } from '../model/reporter.js'
import { declaredWaitMs, type RunPlan } from '../plan/plan-run.js'
import type { RunContext } from './run-context.js'
import { resultOf, runScenario, viewOf } from './run-scenario.js'
import { createSlots, forEachInSlots, type Park } from '../shared/worker-pool.js'
import { createWriteGate } from './write-gate.js'
import type { PollingBudget } from './step/step-polling.js'
import { createResultInterner } from './run-interning.js'

export interface RunPlanOptions {
  readonly context: RunContext
  readonly reporter: Reporter
  readonly concurrency: number
  readonly bail: boolean
  /** The run's polling budget (--max-polling), shared by every `eventually` step; absent: no cap. */
  readonly polling?: PollingBudget
  /** What reporters see of a scenario as it ends (the finalize stage's per-scenario part). */
  readonly finalizeScenario: (result: ScenarioResult) => ReportedScenarioResult
}

/**
 * Runs every scenario of the plan; results come back in plan order, whatever finished first, so
 * reports are the same from run to run. Exclusive scenarios run one at a time, with nothing of ours
 * writing meanwhile; the others with bounded concurrency, a scenario waiting out a clock lending its
 * slot meanwhile (src/shared/worker-pool.ts). With `--concurrency 1`: the exclusive ones first, then the rest,
 * one at a time, in load order.
 */
export async function runPlan(plan: RunPlan, options: RunPlanOptions): Promise<ScenarioResult[]> {
  const { context, reporter } = options
  const results = new Map<Scenario, ScenarioResult>()
  // Every result is kept until the run ends: what results repeat is kept once (run-interning.ts).
  const intern = createResultInterner()
  let bailed = false
  for (const { scenario, reason } of plan.skipped) results.set(scenario, skipped(scenario, reason))

  const runOne = async (scenario: Scenario, scenarioContext: RunContext): Promise<void> => {
    if (bailed || context.interrupted.aborted) {
      results.set(
        scenario,
        skipped(
          scenario,
          bailed ? 'not run: --bail stopped the run after a failure' : 'not run: the run was interrupted',
        ),
      )
      return
    }
    await reporter.onScenarioStart?.(viewOf(scenario))
    const result = intern(
      await runScenario(scenario, scenarioContext, {
        onStepEnd: (step, view) => reporter.onStepEnd?.(step, view),
        polling: options.polling,
      }),
    )
    results.set(scenario, result)
    await reporter.onScenarioEnd?.(options.finalizeScenario(result))
    if (options.bail && result.status === 'failed') bailed = true
  }

  for (const { scenario, reason } of plan.skipped)
    await reporter.onScenarioEnd?.(options.finalizeScenario(skipped(scenario, reason)))
  if (options.concurrency > 1 && plan.exclusive.length > 0) {
    await runExclusiveBesideTheRest(plan, options.concurrency, context, runOne)
  } else {
    for (const scenario of plan.exclusive) await runOne(scenario, context)
    // One at a time gains nothing from starting long waits first: load order, as a reader expects.
    const concurrent = new Set(plan.concurrent)
    const ordered =
      options.concurrency === 1 ? plan.order.filter((scenario) => concurrent.has(scenario)) : plan.concurrent
    await forEachInSlots(ordered, options.concurrency, (scenario, park) => runOne(scenario, { ...context, park }))
  }
  return plan.order.map((scenario) => results.get(scenario)!).filter(Boolean)
}

/**
 * The exclusive scenarios need an account nothing of ours writes to (docs/benchmarks.md: from the
 * first clock gap to the last check). They run beside the others, behind a write gate (write-gate.ts)
 * that holds every write of the others while they run; reads go on. They start once every scenario
 * that waits out a clock has started and is parked in its wait (or done): those writes that must come
 * before such a wait are made before the gate closes, the wait passes during the exclusive ones, and
 * the writes after it follow when the gate opens, so the exclusive chain and the others' clock waits
 * share the same seconds instead of following each other. Until then nothing else starts,
 * so that the chain starts as soon as it can; the scenarios without a wait start with it. The
 * exclusive lane takes one of the `concurrency` slots while it runs.
 */
async function runExclusiveBesideTheRest(
  plan: RunPlan,
  concurrency: number,
  context: RunContext,
  runOne: (scenario: Scenario, context: RunContext) => Promise<void>,
): Promise<void> {
  const slots = createSlots(concurrency)
  const gate = createWriteGate()
  const waiting = plan.concurrent.filter((scenario) => declaredWaitMs(scenario) > 0)
  const waiters = trackWaiters(waiting)
  let gateClosed!: () => void
  const chainStarted = new Promise<void>((resolve) => (gateClosed = resolve))
  const exclusiveLane = async (): Promise<void> => {
    await waiters.allParked
    await slots.takeFirst()
    try {
      await gate.close()
      gateClosed()
      for (const scenario of plan.exclusive) await runOne(scenario, context)
    } finally {
      gate.open()
      slots.release()
    }
  }
  const runGated = (scenario: Scenario, park: Park): Promise<void> =>
    waiters.run(scenario, park, (tracked) =>
      runOne(scenario, { ...context, client: gate.gated(context.client, tracked), park: tracked }),
    )
  // Before the chain, only what must come before it: the waiters, up to their waits. The rest starts
  // with the chain: its reads fill the seconds the chain spends waiting, its writes follow the chain.
  const rest = plan.concurrent.filter((scenario) => !waiting.includes(scenario))
  await Promise.all([
    exclusiveLane(),
    forEachInSlots(waiting, slots, runGated),
    chainStarted.then(() => forEachInSlots(rest, slots, runGated)),
  ])
}

/**
 * Knows when every scenario that waits out a clock has started and is in a wait, past its last wait, or
 * done. Past its last wait a scenario has only clock-free work left, which may as well follow the chain
 * (its writes are held at the gate); on a distant server its wait may already be over when it reaches it,
 * and holding the chain until such a scenario ends made every scenario after the chain start late.
 */
function trackWaiters(waiters: readonly Scenario[]): {
  allParked: Promise<void>
  run(scenario: Scenario, park: Park, work: (park: Park) => Promise<void>): Promise<void>
} {
  const waiting = new Set(waiters)
  let started = 0
  let atWork = 0
  let reached!: () => void
  const allParked = new Promise<void>((resolve) => (reached = resolve))
  const check = (): void => {
    if (started === waiting.size && atWork === 0) reached()
  }
  check()
  return {
    allParked,
    async run(scenario, park, work) {
      if (!waiting.has(scenario)) return work(park)
      started++
      atWork++
      let working = true
      let waitsLeft = scenario.steps.filter((step) => step.waitMs || step.untilServerDateAfter !== undefined).length
      const rest = (): void => {
        if (!working) return
        working = false
        atWork--
        check()
      }
      const tracked: Park = (wait) =>
        park(async () => {
          rest()
          try {
            return await wait()
          } finally {
            waitsLeft--
            if (waitsLeft > 0) {
              working = true
              atWork++
            }
          }
        })
      try {
        await work(tracked)
      } finally {
        rest()
      }
    },
  }
}

function skipped(scenario: Scenario, reason: string): ScenarioResult {
  return resultOf(scenario, {
    status: 'skipped',
    skipReason: reason,
    durationMs: 0,
    warnings: [],
    steps: [],
    cleanup: [],
  })
}
