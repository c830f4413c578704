import { performance } from 'node:perf_hooks'
import type { MatrixCell, Scenario, Step } from '../model/scenario.js'
import { TOKEN_ROLES } from '../model/scenario.js'
import type { AssertionResult, ScenarioResult, StepResult } from '../model/result.js'
import { ACTIVITY_PATH_SHAPE, PROFILE_PATH, activityUrlUnder, isProfileUrlUnder } from '../spec/paths.js'
import { RULE } from '../spec/rule-ids.js'
import { readActivity, stillThere } from './safety/ownership.js'
import type { ScenarioView } from '../model/reporter.js'
import type { RunContext } from './run-context.js'
import { prepareRequest } from './http/send-request.js'
import { runStep, type StepOutcome } from './step/run-step.js'
import type { CreatedResource, ScenarioState, StepChange } from './step/step-resources.js'
import { rulesOf } from './step/step-verdict.js'
import { runStepGroup } from './step/run-step-group.js'
import type { PollingBudget } from './step/step-polling.js'

export interface ScenarioOptions {
  onStepEnd?(step: StepResult, scenario: ScenarioView): void | Promise<void>
  /** The run's polling budget (--max-polling), shared by every `eventually` step; absent: no cap. */
  readonly polling?: PollingBudget
}

/**
 * Runs the steps in order and stops at the first that does not pass (later steps build on its
 * captures): the steps after it are `blocked`, so their rules are not judged rather than failed.
 * Whatever happened, deletes what the scenario created and runs its cleanup steps.
 */
export async function runScenario(
  scenario: Scenario,
  context: RunContext,
  options: ScenarioOptions = {},
): Promise<ScenarioResult> {
  const { polling } = options
  const started = performance.now()
  const created: CreatedResource[] = []
  const state: ScenarioState = { variables: {}, record: recorderOf(scenario, created, context) }
  const steps: StepResult[] = []
  let skipReason: string | undefined
  const cleanup: StepResult[] = []
  const deletions: StepResult[] = []
  try {
    // A matrix cell that did not pass ends there; the next cell is independent of it and still runs.
    let endedCell: MatrixCell | undefined
    for (const step of scenario.steps) {
      if (context.interrupted.aborted) {
        skipReason = 'interrupted before it finished'
        break
      }
      if (context.ownership?.stopped && writes(step)) {
        skipReason = `not finished: ${context.ownership.stopped}`
        break
      }
      if (step.cell && endedCell && isSameCell(step.cell, endedCell)) continue
      if (step.parallel) {
        const group = await runStepGroup(step, state, context, polling)
        for (const result of group.results) {
          steps.push(result)
          await options.onStepEnd?.(result, viewOf(scenario))
        }
        if (group.skipReason) {
          skipReason = group.skipReason
          break
        }
        const stopper = group.results.find((result) => result.status !== 'passed')
        if (!stopper) continue
        const index = scenario.steps.indexOf(step)
        steps.push(...blockedSteps(scenario.steps.slice(index + 1), index + 1, stopper))
        if (stopper.status === 'blocked') skipReason = stopper.error?.message ?? 'not judged'
        break
      }
      const notSent = step.cell && unsentCellReason(step.cell, context)
      const outcome: StepOutcome = notSent
        ? { result: unsentStep(step, notSent) }
        : await runStep(step, state, context, polling)
      // Not `{ ...outcome.result, cell }`: in V8 that gives every matrix step a hidden class of its own (docs/benchmarks.md).
      const result = step.cell ? Object.assign({}, outcome.result, { cell: step.cell }) : outcome.result
      steps.push(result)
      await options.onStepEnd?.(result, viewOf(scenario))
      if (outcome.skipReason) {
        skipReason = outcome.skipReason
        break
      }
      if (result.status === 'passed') continue
      if (step.cell) {
        endedCell = step.cell
        continue
      }
      const index = scenario.steps.indexOf(step)
      steps.push(...blockedSteps(scenario.steps.slice(index + 1), index + 1, result))
      // A body past --max-body-bytes: nothing was judged, so the scenario is not judged either.
      if (result.status === 'blocked') skipReason = result.error?.message ?? 'not judged'
      break
    }
  } finally {
    // Whatever happened above, undo what the scenario did.
    deletions.push(...(await deleteCreated(scenario, created, state, context)))
    cleanup.push(...deletions, ...(await runCleanupSteps(scenario.cleanup, state, context, polling)))
  }
  const failed = steps.some((step) => step.status === 'failed' || step.status === 'error') || deletions.some(failsARule)
  const warnings: AssertionResult[] = [...steps, ...cleanup].flatMap((step) =>
    step.assertions.filter((a) => !a.ok && a.severity === 'warning'),
  )
  return resultOf(scenario, {
    status: failed ? 'failed' : skipReason ? 'skipped' : 'passed',
    ...(skipReason && !failed ? { skipReason } : {}),
    durationMs: performance.now() - started,
    warnings,
    steps,
    cleanup,
  })
}

/**
 * The scenario's side of what its steps change: each change is written to the cleanup ledger the moment a
 * step hands it over (before that step sends anything else), and what was created is kept to be deleted at
 * the end unless a step of the scenario deleted it.
 */
function recorderOf(scenario: Scenario, created: CreatedResource[], context: RunContext): (change: StepChange) => void {
  return (change) => {
    if (change.kind === 'deleted') {
      for (const resource of created) if (resource.url === change.url) resource.deleted = true
      context.ledger?.record({ type: 'deleted', url: change.url })
      return
    }
    created.push({ url: change.url, auth: change.auth, markerSent: change.markerSent, deleted: false })
    context.ledger?.record({ type: 'created', url: change.url, role: change.auth, scenario: scenario.id })
  }
}

/** True when the step, or a step of its parallel group, changes data. */
function writes(step: Step): boolean {
  const requests = step.parallel ? step.parallel.map((branch) => branch.step.request) : [step.request]
  return requests.some((request) => request !== undefined && request.method !== 'GET' && request.method !== 'HEAD')
}

/** The steps a failed or unjudged step leaves behind, each saying which step and rules stopped it. */
function blockedSteps(rest: readonly Step[], position: number, blocker: StepResult): StepResult[] {
  const byRules = [
    ...new Set(blocker.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules)),
  ]
  const what =
    blocker.status === 'error'
      ? `could not be judged (${blocker.error?.code ?? 'error'})`
      : blocker.status === 'blocked'
        ? 'was not judged'
        : 'failed'
  const reason = `not judged: step ${position} "${blocker.name}" ${what}${byRules.length > 0 ? ` (${byRules.join(', ')})` : ''}`
  return rest.map((step) => ({
    name: step.name,
    at: step.at,
    status: 'blocked',
    durationMs: 0,
    assertions: [],
    attempts: 0,
    rules: rulesOf(step),
    block: { reason, byRules },
  }))
}

/**
 * Newest first, each with the token that created it. Only what the run proves its own is deleted
 * (ownership.ts): a Location that is not one activity under the base URL, or an activity whose read
 * lacks the run marker, is left in place; when the create sent the marker, that is a failure of the
 * rule the read disproves. After each delete a read must no longer find it ("left behind" otherwise).
 */
async function deleteCreated(
  scenario: Scenario,
  created: readonly CreatedResource[],
  state: ScenarioState,
  context: RunContext,
): Promise<StepResult[]> {
  const results: StepResult[] = []
  for (const resource of [...created].reverse().filter((r) => !r.deleted)) {
    results.push(context.redact(await deleteOneCreated(scenario, resource, state, context)))
  }
  return results
}

async function deleteOneCreated(
  scenario: Scenario,
  resource: CreatedResource,
  state: ScenarioState,
  context: RunContext,
): Promise<StepResult> {
  const started = performance.now()
  const name = `clean up ${pathOf(resource.url)}`
  const verdict = (
    status: StepResult['status'],
    assertion: Omit<AssertionResult, 'severity' | 'at' | 'target'>,
    error?: string,
  ): StepResult => ({
    name,
    at: scenario.at,
    status,
    durationMs: performance.now() - started,
    assertions: [{ severity: 'failure', at: scenario.at, target: 'headers.location', ...assertion }],
    attempts: 1,
    ...(error ? { error: { code: 'E_CLEANUP', kind: 'error', message: error, at: scenario.at } } : {}),
  })
  const notOurs = (reason: string, rule?: string, stillOwed = false): StepResult => {
    // Still owed when the read proved nothing either way (a 5xx): `fitconform cleanup` may prove it later.
    if (!stillOwed) context.ledger?.record({ type: 'refused', url: resource.url, reason })
    const message = `not proven ours, left in place (nothing sent to it): ${resource.url}: ${reason}`
    return rule
      ? verdict('failed', { ok: false, rules: [rule], matcher: 'ownership', message })
      : verdict('error', { ok: false, rules: [], matcher: 'ownership', message }, message)
  }
  const target = activityUrlUnder(resource.url, context.baseUrl)
  // The create step already failed the rule its proof read disproved; here it only stays untouched.
  if (!target) return notOurs(`the Location is not ${ACTIVITY_PATH_SHAPE} under ${context.baseUrl.toString()}`)
  if (context.ownership && !context.ownership.isAdmitted(target))
    return notOurs("it was not proven the run's own when it was created (see the create step)")
  const read = await readActivity(context, target, resource.auth)
  if (read.status === 404 || read.status === 410) {
    resource.deleted = true
    context.ledger?.record({ type: 'deleted', url: resource.url })
    return verdict('passed', {
      ok: true,
      rules: [],
      matcher: 'ownership',
      message: `already gone: a read answered ${read.status}`,
    })
  }
  const step: Step = {
    name,
    at: scenario.at,
    request: { method: 'DELETE', url: target, query: {}, headers: {}, auth: resource.auth, wire: false },
    expect: {
      checks: [
        {
          path: 'status',
          matcher: 'oneOf',
          expected: [200, 202, 204, 404, 410],
          rules: [],
          at: scenario.at,
          severity: 'failure',
        },
      ],
    },
    capture: {},
  }
  const { result } = await runStep(step, state, { ...context, interrupted: new AbortController().signal })
  if (result.status !== 'passed') return result
  if (await stillThere(context, target, resource.auth)) {
    const reason = `DELETE answered ${result.response?.status} but a read still finds it`
    context.ledger?.record({ type: 'left-behind', url: resource.url, reason, role: resource.auth })
    const message = `left behind: ${resource.url}: ${reason}; \`fitconform cleanup\` will try again`
    return {
      ...result,
      status: 'failed',
      assertions: [
        ...result.assertions,
        {
          ok: false,
          severity: 'failure',
          rules: [RULE.deleteRemoves],
          target: 'status',
          matcher: 'readBack',
          message,
          at: scenario.at,
        },
      ],
    }
  }
  resource.deleted = true
  context.ledger?.record({ type: 'deleted', url: resource.url })
  return result
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/** True when a step's own failure names a rule: cleanup that proves a rule broken fails the scenario too. */
function failsARule(step: StepResult): boolean {
  return step.assertions.some(
    (assertion) => !assertion.ok && assertion.severity === 'failure' && assertion.rules.length > 0,
  )
}

async function runCleanupSteps(
  steps: readonly Step[],
  state: ScenarioState,
  context: RunContext,
  polling: PollingBudget | undefined,
): Promise<StepResult[]> {
  if (steps.length === 0) return []
  const results: StepResult[] = []
  // Cleanup runs even after an interrupt: it is what leaves the account as it was found.
  const uninterrupted = { ...context, interrupted: new AbortController().signal }
  for (const step of steps) {
    const refusal = await refuseCleanupStep(step, state, context)
    if (refusal) {
      results.push(
        context.redact({
          name: step.name,
          at: step.at,
          status: refusal.status,
          durationMs: 0,
          assertions: [],
          attempts: 1,
          error: { code: 'E_CLEANUP', kind: 'error', message: refusal.message, at: step.at },
        }),
      )
      continue
    }
    const { result } = await runStep(step, state, uninterrupted, polling)
    // A value the step would restore was never captured, so the change it undoes never happened either.
    const notNeeded = result.error?.code === 'E_TEMPLATE_UNDEFINED'
    results.push(
      notNeeded
        ? {
            ...result,
            status: 'skipped',
            error: { ...result.error!, message: `not needed: ${result.error!.message}; there is nothing to restore` },
          }
        : result,
    )
  }
  return results
}

/**
 * A cleanup step that writes goes only to the profile or to an activity the run proves its own. An
 * activity a read no longer finds (or cannot read with that token) needs nothing: the step is skipped.
 * Anything else is refused unsent: an error, listed as not proven ours.
 */
async function refuseCleanupStep(
  step: Step,
  state: ScenarioState,
  context: RunContext,
): Promise<{ status: 'skipped' | 'error'; message: string } | undefined> {
  if (!step.request || step.request.method === 'GET' || step.request.method === 'HEAD') return undefined
  let url: string
  try {
    url = prepareRequest(step.request, { ...state.variables, run: context.run, config: context.config }, context)
      .outgoing.url
  } catch {
    return undefined // runStep reports it (E_TEMPLATE_UNDEFINED: nothing to restore)
  }
  if (isProfileUrlUnder(url, context.baseUrl)) return undefined
  const target = activityUrlUnder(url, context.baseUrl)
  const refused =
    context.ownership?.refusal(step.request.method, url) ??
    (target
      ? undefined
      : `${step.request.method} to a URL that is neither ${PROFILE_PATH} nor ${ACTIVITY_PATH_SHAPE} under ${context.baseUrl.toString()}`)
  if (refused || !target) {
    const reason = refused ?? 'not an activity'
    context.ledger?.record({ type: 'refused', url, reason })
    return { status: 'error', message: `not proven ours, nothing sent: ${url}: ${reason}` }
  }
  const read = await readActivity(context, target, step.request.auth)
  if (read.status === 200) return undefined
  return {
    status: 'skipped',
    message: `not needed: a read answered ${read.status}, so there is nothing of the run's there to change`,
  }
}

/** Why a matrix cell sends nothing: the spec leaves it open, or its credential's token was not given. */
function unsentCellReason(cell: MatrixCell, context: RunContext): string | undefined {
  if (cell.open !== undefined) return `open, not judged: ${cell.open}`
  const role = TOKEN_ROLES.find((known) => known === cell.credential)
  return role && context.tokens[role] === undefined
    ? `needs --${role} (or FITCONFORM_${role.toUpperCase().replace(/-/g, '_')})`
    : undefined
}

function isSameCell(a: MatrixCell, b: MatrixCell): boolean {
  return a.route === b.route && a.credential === b.credential
}

function unsentStep(step: Step, reason: string): StepResult {
  return {
    name: step.name,
    at: step.at,
    status: 'skipped',
    durationMs: 0,
    assertions: [],
    attempts: 0,
    skipReason: reason,
  }
}

/** What a result says about how its scenario went; the rest it repeats from the scenario. */
type Outcome = Pick<ScenarioResult, 'status' | 'skipReason' | 'durationMs' | 'warnings' | 'steps' | 'cleanup'>

/**
 * A scenario's result, key by key: in V8 a literal that starts with a spread (`{ ...identity, status, … }`)
 * and then adds keys gets a hidden class of its own, and every result is kept until the run ends
 * (docs/benchmarks.md, "Hidden classes").
 */
export function resultOf(scenario: Scenario, outcome: Outcome): ScenarioResult {
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    at: scenario.at,
    rules: scenario.rules,
    tags: scenario.tags,
    matrixRow: scenario.matrixRow,
    status: outcome.status,
    ...(outcome.skipReason === undefined ? {} : { skipReason: outcome.skipReason }),
    durationMs: outcome.durationMs,
    warnings: outcome.warnings,
    steps: outcome.steps,
    cleanup: outcome.cleanup,
  }
}

export function viewOf(scenario: Scenario): ScenarioView {
  return { id: scenario.id, title: scenario.title, file: scenario.file, rules: scenario.rules, tags: scenario.tags }
}
