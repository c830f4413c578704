import type { Scenario } from '../model/scenario.js'
import type { ReportedScenarioResult } from '../model/reported-result.js'
import type { ScenarioResult } from '../model/result.js'
import type { Reporter } from '../model/reporter.js'
import type { RunPlan } from '../plan/plan-run.js'
import type { RunContext } from './run-context.js'
import { identityOf, runScenario, viewOf } from './run-scenario.js'
import { forEachInSlots, type Park } from './scenario-slots.js'

export interface RunPlanOptions {
  readonly context: RunContext
  readonly reporter: Reporter
  readonly concurrency: number
  readonly bail: boolean
  /** What reporters see of a scenario as it ends (the finalize stage's per-scenario part). */
  readonly finalizeScenario: (result: ScenarioResult) => ReportedScenarioResult
}

/**
 * Exclusive scenarios first, one at a time (they need an account nothing of ours writes to), then
 * the rest with bounded concurrency (a scenario waiting out a clock gives its slot up meanwhile:
 * scenario-slots.ts). The concurrent scenarios that send no write (no request but GET
 * and HEAD, cleanup included) do not wait for the exclusive ones: they run beside them on the
 * workers the exclusive one leaves free, as reads change nothing an exclusive scenario relies on.
 * Results come back in plan order, whatever finished first, so reports are the same from run to run.
 */
export async function runPlan(plan: RunPlan, options: RunPlanOptions): Promise<ScenarioResult[]> {
  const { context, reporter } = options
  const results = new Map<Scenario, ScenarioResult>()
  let bailed = false
  for (const { scenario, reason } of plan.skipped) results.set(scenario, skipped(scenario, reason))

  const runOne = async (scenario: Scenario, park?: Park): Promise<void> => {
    if (bailed || context.interrupted.aborted) {
      results.set(scenario, skipped(scenario, bailed ? 'not run: --bail stopped the run after a failure' : 'not run: the run was interrupted'))
      return
    }
    await reporter.onScenarioStart?.(viewOf(scenario))
    const result = await runScenario(scenario, park ? { ...context, park } : context, { onStepEnd: (step, view) => reporter.onStepEnd?.(step, view) })
    results.set(scenario, result)
    await reporter.onScenarioEnd?.(options.finalizeScenario(result))
    if (options.bail && result.status === 'failed') bailed = true
  }

  for (const { scenario, reason } of plan.skipped) await reporter.onScenarioEnd?.(options.finalizeScenario(skipped(scenario, reason)))
  // With --concurrency 1 nothing runs beside anything: one scenario at a time, in plan order.
  const alongside = options.concurrency > 1 && plan.exclusive.length > 0 ? plan.concurrent.filter((scenario) => !scenario.writes) : []
  const afterwards = plan.concurrent.filter((scenario) => !alongside.includes(scenario))
  const runExclusive = async (): Promise<void> => {
    for (const scenario of plan.exclusive) await runOne(scenario)
  }
  await Promise.all([runExclusive(), forEachInSlots(alongside, options.concurrency - 1, runOne)])
  await forEachInSlots(afterwards, options.concurrency, runOne)
  return plan.order.map((scenario) => results.get(scenario)!).filter(Boolean)
}

function skipped(scenario: Scenario, reason: string): ScenarioResult {
  return {
    ...identityOf(scenario),
    status: 'skipped',
    skipReason: reason,
    durationMs: 0,
    warnings: [],
    steps: [],
    cleanup: [],
  }
}
