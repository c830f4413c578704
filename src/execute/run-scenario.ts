import { performance } from 'node:perf_hooks'
import type { Scenario, Step } from '../model/scenario.js'
import type { AssertionResult, ScenarioResult, StepResult } from '../model/result.js'
import type { ScenarioView } from '../report/reporter.js'
import type { RestoreRequest } from './ledger.js'
import type { RunContext } from './run-context.js'
import { prepareRequest } from './send-request.js'
import { rulesOf, runStep, type CreatedResource, type ScenarioState } from './run-step.js'

export interface ScenarioEvents {
  onStepEnd?(step: StepResult, scenario: ScenarioView): void | Promise<void>
}

/**
 * Runs the steps in order and stops at the first that does not pass (later steps build on its
 * captures): the steps after it are `blocked`, so their rules are not judged rather than failed.
 * Whatever happened, deletes what the scenario created and runs its cleanup steps.
 */
export async function runScenario(scenario: Scenario, context: RunContext, events: ScenarioEvents = {}): Promise<ScenarioResult> {
  const started = performance.now()
  const state: ScenarioState = { scenarioId: scenario.id, variables: {}, created: [] }
  const steps: StepResult[] = []
  let skipReason: string | undefined
  const cleanup: StepResult[] = []
  try {
    for (const step of scenario.steps) {
      if (context.interrupted.aborted) {
        skipReason = 'interrupted before it finished'
        break
      }
      if (step.request?.method === 'PUT' && scenario.cleanup.length > 0) recordRestore(scenario, state, context)
      const outcome = await runStep(step, state, context)
      steps.push(outcome.result)
      await events.onStepEnd?.(outcome.result, viewOf(scenario))
      if (outcome.skipReason) {
        skipReason = outcome.skipReason
        break
      }
      if (outcome.result.status !== 'passed') {
        steps.push(...blockedSteps(scenario.steps.slice(steps.length), steps.length, outcome.result))
        break
      }
    }
  } finally {
    // Whatever happened above, undo what the scenario did.
    cleanup.push(...(await deleteCreated(scenario, state, context)), ...(await runCleanupSteps(scenario.cleanup, state, context)))
  }
  const failed = steps.some((step) => step.status === 'failed' || step.status === 'error')
  const warnings: AssertionResult[] = [...steps, ...cleanup].flatMap((step) => step.assertions.filter((a) => !a.ok && a.severity === 'warning'))
  return {
    ...identityOf(scenario),
    status: failed ? 'failed' : skipReason ? 'skipped' : 'passed',
    ...(skipReason && !failed ? { skipReason } : {}),
    durationMs: performance.now() - started,
    warnings,
    steps,
    cleanup,
  }
}

/** The steps a failed or unjudged step leaves behind, each saying which step and rules stopped it. */
function blockedSteps(rest: readonly Step[], position: number, blocker: StepResult): StepResult[] {
  const byRules = [...new Set(blocker.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules))]
  const what = blocker.status === 'error' ? `could not be judged (${blocker.error?.code ?? 'error'})` : blocker.status === 'blocked' ? 'was not judged' : 'failed'
  const reason = `not judged: step ${position} "${blocker.name}" ${what}${byRules.length > 0 ? ` (${byRules.join(', ')})` : ''}`
  return rest.map((step) => ({ name: step.name, at: step.at, status: 'blocked', durationMs: 0, assertions: [], attempts: 0, rules: rulesOf(step), block: { reason, byRules } }))
}

/** Newest first, each with the token that created it; a 404/410 means it is already gone, which is fine. */
async function deleteCreated(scenario: Scenario, state: ScenarioState, context: RunContext): Promise<StepResult[]> {
  const results: StepResult[] = []
  for (const resource of [...state.created].reverse().filter((r: CreatedResource) => !r.deleted)) {
    const step: Step = {
      name: `clean up ${new URL(resource.url).pathname}`,
      at: scenario.at,
      request: { method: 'DELETE', url: resource.url, query: {}, headers: {}, auth: resource.auth, wire: false },
      expect: { checks: [{ path: 'status', matcher: 'oneOf', expected: [200, 202, 204, 404, 410], rules: [], at: scenario.at, severity: 'failure' }] },
      capture: {},
    }
    const outcome = await runStep(step, state, { ...context, interrupted: new AbortController().signal })
    resource.deleted = outcome.result.status === 'passed'
    if (resource.deleted) context.ledger?.record({ type: 'deleted', url: resource.url })
    results.push(outcome.result)
  }
  return results
}

async function runCleanupSteps(steps: readonly Step[], state: ScenarioState, context: RunContext): Promise<StepResult[]> {
  const results: StepResult[] = []
  // Cleanup runs even after an interrupt: it is what leaves the account as it was found.
  const uninterrupted = { ...context, interrupted: new AbortController().signal }
  for (const step of steps) {
    const { result } = await runStep(step, state, uninterrupted)
    // A value the step would restore was never captured, so the change it undoes never happened either.
    const notNeeded = result.error?.code === 'E_TEMPLATE_UNDEFINED'
    results.push(notNeeded ? { ...result, status: 'skipped', error: { ...result.error!, message: `not needed: ${result.error!.message}; there is nothing to restore` } } : result)
  }
  if (steps.length > 0 && results.every((result) => result.status === 'passed' || result.status === 'skipped')) context.ledger?.record({ type: 'restored', scenario: state.scenarioId })
  return results
}

/**
 * Before a step changes an existing value, write down how the scenario's cleanup would restore it,
 * rendered with what is known now: `fitconform cleanup` can replay it after a hard kill.
 */
function recordRestore(scenario: Scenario, state: ScenarioState, context: RunContext): void {
  if (!context.ledger) return
  const scope = { ...state.variables, run: context.run, config: context.config }
  const requests: RestoreRequest[] = []
  for (const step of scenario.cleanup) {
    if (!step.request) continue
    try {
      const { outgoing } = prepareRequest(step.request, scope, context)
      const headers = Object.fromEntries(Object.entries(outgoing.headers).filter(([name]) => name !== 'authorization'))
      requests.push({ method: outgoing.method, url: outgoing.url, role: step.request.auth, headers, ...(outgoing.body !== undefined ? { body: outgoing.body } : {}) })
    } catch {
      return // a value the restore needs is not known yet: nothing to restore either
    }
  }
  if (requests.length > 0) context.ledger.record({ type: 'restore', scenario: scenario.id, requests })
}

/** The fields a result repeats from its scenario. */
export function identityOf(scenario: Scenario): Pick<ScenarioResult, 'id' | 'title' | 'file' | 'at' | 'rules' | 'tags'> {
  const { id, title, file, at, rules, tags } = scenario
  return { id, title, file, at, rules, tags }
}

export function viewOf(scenario: Scenario): ScenarioView {
  return { id: scenario.id, title: scenario.title, file: scenario.file, rules: scenario.rules, tags: scenario.tags }
}
