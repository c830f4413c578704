import type { ReportedRunResult, ReportedScenarioResult, RuleVerdict } from '../model/reported-result.js'
import type { StepResult } from '../model/result.js'
import type { Rule } from '../model/scenario.js'
import { compareAnswers, type Answer } from './compare-answers.js'
import { classifyStep } from './classify-step.js'
import type { Difference, RuleDifference, StepDiff } from './diff-result.js'
import { TIME_SCOPE, UNCLASSIFIED, type StepContext } from '../spec/open-choices.js'
import {
  BASE_URL_ROLE,
  createRoleMap,
  ownActivityLabel,
  type CreatedActivity,
  type RoleMap,
} from './volatile-values.js'

/** One side's finished run and the base URL its answers name. */
export interface SideRun {
  readonly result: ReportedRunResult
  readonly baseUrl: URL
}

export interface PairedRuns {
  readonly rules: readonly RuleDifference[]
  readonly steps: readonly StepDiff[]
  /** The activities each side created, by role, for the identifier-format choice. */
  readonly created: { readonly new: readonly CreatedActivity[]; readonly reference: readonly CreatedActivity[] }
}

/** Pairs the two runs scenario by scenario and step by step, and classifies every difference. */
export function pairRuns(runNew: SideRun, runReference: SideRun, catalogue: readonly Rule[]): PairedRuns {
  const createdNew = createdActivities(runNew.result)
  const createdReference = createdActivities(runReference.result)
  const roles = {
    new: createRoleMap(runNew.baseUrl, createdNew),
    reference: createRoleMap(runReference.baseUrl, createdReference),
  }
  const referenceById = new Map(runReference.result.scenarios.map((scenario) => [scenario.id, scenario]))
  const steps: StepDiff[] = []
  for (const scenarioNew of runNew.result.scenarios) {
    const scenarioReference = referenceById.get(scenarioNew.id)
    if (scenarioReference) steps.push(...pairScenario(scenarioNew, scenarioReference, roles, catalogue))
  }
  return {
    rules: ruleDifferences(runNew.result.rules, runReference.result.rules),
    steps: blameLikeDifferences(steps),
    created: { new: createdNew, reference: createdReference },
  }
}

function pairScenario(
  scenarioNew: ReportedScenarioResult,
  scenarioReference: ReportedScenarioResult,
  roles: { new: RoleMap; reference: RoleMap },
  catalogue: readonly Rule[],
): StepDiff[] {
  const found: StepDiff[] = []
  const edited = new Set<'activity' | 'profile'>()
  const count = Math.max(scenarioNew.steps.length, scenarioReference.steps.length)
  for (let index = 0; index < count; index++) {
    const stepNew = scenarioNew.steps[index]
    const stepReference = scenarioReference.steps[index]
    const request = stepNew?.request ?? stepReference?.request
    const target = request
      ? roles[stepNew?.request ? 'new' : 'reference'].text(request.url).replace(BASE_URL_ROLE, '')
      : ''
    const head = {
      scenario: scenarioNew.id,
      step: index + 1,
      name: (stepNew ?? stepReference)?.name ?? '',
      request: request ? `${request.method} ${target}` : '(no request)',
    }
    const differences =
      stepNew && stepReference
        ? compareSteps(
            stepNew,
            stepReference,
            roles,
            {
              scenario: scenarioNew.id,
              method: request?.method ?? '',
              target,
              ...contentTypeOf(request?.headers),
              edited: new Set(edited),
            },
            catalogue,
          )
        : []
    if (differences.length > 0) found.push({ ...head, differences })
    if (request?.method === 'PUT') edited.add(target.startsWith('/profile') ? 'profile' : 'activity')
  }
  return found
}

function compareSteps(
  stepNew: StepResult,
  stepReference: StepResult,
  roles: { new: RoleMap; reference: RoleMap },
  context: Omit<StepContext, 'statuses'> & { scenario: string },
  catalogue: readonly Rule[],
): Difference[] {
  if (!stepNew.response || !stepReference.response) {
    const unanswered = [
      ['new', stepNew],
      ['reference', stepReference],
    ] as const
    return unanswered
      .filter(([, step]) => !step.response && (stepNew.response || stepReference.response))
      .map(([side, step]): Difference => ({
        class: 'conformance',
        kind: step.block?.byRules[0] ?? step.error?.code ?? step.status,
        path: 'step',
        section: '',
        note: `not answered on the ${side} server: ${step.block?.reason ?? step.error?.message ?? step.skipReason ?? step.status}`,
      }))
  }
  // A body past the run's recording cap is kept as cut text on either side: only whole bodies are compared (volatile-values.ts).
  const whole = !stepNew.response.truncated && !stepReference.response.truncated
  const answerNew = answerOf(stepNew, roles.new, whole)
  const answerReference = answerOf(stepReference, roles.reference, whole)
  const raw = compareAnswers(answerNew, answerReference, {
    ownLabel: ownActivityLabel(context.scenario),
    scoped: TIME_SCOPE.test(context.target),
  })
  const { scenario: _scenario, ...step } = context
  const statuses = { new: answerNew.status, reference: answerReference.status }
  return classifyStep(
    raw,
    { new: stepNew.assertions, reference: stepReference.assertions },
    { ...step, statuses },
    catalogue,
  )
}

/** A step's answer with the side's values put in their roles; the body only when `withBody`. */
export function answerOf(step: StepResult, roles: RoleMap, withBody: boolean): Answer {
  const response = step.response!
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, roles.text(value)]))
  return {
    status: response.status,
    headers,
    ...(withBody && response.body !== undefined ? { body: roles.json(response.body) } : {}),
  }
}

function contentTypeOf(headers: Readonly<Record<string, string>> | undefined): { contentType?: string } {
  const value = headers?.['content-type']
  return value !== undefined ? { contentType: value } : {}
}

/** Every activity a side's run created (a POST answered with a Location), labelled by scenario and step. */
function createdActivities(result: ReportedRunResult): CreatedActivity[] {
  const created: CreatedActivity[] = []
  for (const scenario of result.scenarios) {
    scenario.steps.forEach((step, index) => {
      const location = step.response?.headers['location']
      if (step.request?.method === 'POST' && location && step.response!.status < 300)
        created.push({ label: `${ownActivityLabel(scenario.id)}${index + 1}`, url: location })
    })
  }
  return created
}

/** Verdicts that say a rule did not hold or could not be judged; a warning is an irregularity, not a failure. */
const NOT_PASSING: ReadonlySet<string> = new Set(['failed', 'error', 'blocked'])

function ruleDifferences(
  verdictsNew: readonly RuleVerdict[],
  verdictsReference: readonly RuleVerdict[],
): RuleDifference[] {
  const byId = new Map(verdictsReference.map((verdict) => [verdict.id, verdict]))
  const found: RuleDifference[] = []
  for (const verdict of verdictsNew) {
    const other = byId.get(verdict.id)
    if (
      !other ||
      other.status === verdict.status ||
      !(NOT_PASSING.has(verdict.status) || NOT_PASSING.has(other.status))
    )
      continue
    found.push({
      rule: verdict.id,
      section: verdict.section,
      quote: verdict.quote,
      new: verdict.status,
      reference: other.status,
    })
  }
  return found
}

/**
 * A difference no check looked at, at a place where a check of the same run failed on the same side
 * (a Last-Modified missing on a step that does not check it), is the same fault: it is filed under
 * that rule, with the step that proved it.
 */
function blameLikeDifferences(steps: readonly StepDiff[]): StepDiff[] {
  const proved = new Map<string, { rule: Difference; at: string }>()
  for (const step of steps) {
    for (const d of step.differences) {
      const key = `${d.path}|${d.new === undefined ? 'new' : d.reference === undefined ? 'reference' : 'both'}`
      if (d.class === 'conformance' && d.path !== 'step' && !proved.has(key))
        proved.set(key, { rule: d, at: `${step.scenario} step ${step.step}` })
    }
  }
  return steps.map((step) => ({
    ...step,
    differences: step.differences.map((d): Difference => {
      if (d.kind !== UNCLASSIFIED.kind) return d
      const like = proved.get(
        `${d.path}|${d.new === undefined ? 'new' : d.reference === undefined ? 'reference' : 'both'}`,
      )
      if (!like) return d
      const { note: _note, ...rest } = d
      return {
        ...rest,
        class: 'conformance',
        kind: like.rule.kind,
        section: like.rule.section,
        ...(like.rule.quote ? { quote: like.rule.quote } : {}),
        note: `not checked here; the same difference fails ${like.rule.kind} at ${like.at}`,
      }
    }),
  }))
}
