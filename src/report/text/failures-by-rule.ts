import type { ReportedRunResult, ReportedScenarioResult, RuleVerdict } from '../../model/reported-result.js'
import type { AssertionResult, StepResult } from '../../model/result.js'

/*
 * "Failures by rule", the view every output starts with: each broken rule once, with how many
 * scenarios broke it and one example to look at. Read from the finalize stage's verdicts; nothing is
 * judged here.
 */

export interface RuleExample {
  readonly scenario: ReportedScenarioResult
  readonly step: StepResult
  /** 1-based among the scenario's steps (or cleanup steps). */
  readonly position: number
  readonly cleanup: boolean
  /** The step's failed checks tagged with the rule. */
  readonly assertions: readonly AssertionResult[]
}

export interface BrokenRule {
  readonly verdict: RuleVerdict
  /** Scenarios in which a check of the rule failed, in run order. */
  readonly scenarios: readonly ReportedScenarioResult[]
  readonly example?: RuleExample
}

/** Steps that could not be judged (transport errors, timeouts) or failed checks filed under no rule. */
export interface UnjudgedStep {
  readonly scenario: ReportedScenarioResult
  readonly step: StepResult
  readonly position: number
  readonly cleanup: boolean
}

export function brokenRules(result: ReportedRunResult): BrokenRule[] {
  const byId = new Map(result.scenarios.map((scenario) => [scenario.id, scenario]))
  return result.rules
    .filter((verdict) => verdict.status === 'failed')
    .map((verdict) => {
      const scenarios = verdict.scenarios
        .filter((entry) => entry.status === 'failed')
        .map((entry) => byId.get(entry.id))
        .filter((s): s is ReportedScenarioResult => s !== undefined)
      const example = scenarios.map((scenario) => exampleIn(scenario, verdict.id)).find((found) => found !== undefined)
      return { verdict, scenarios, example }
    })
}

export function unjudgedSteps(result: ReportedRunResult): UnjudgedStep[] {
  const found: UnjudgedStep[] = []
  for (const scenario of result.scenarios) {
    if (scenario.status !== 'failed' || scenario.expectation === 'expected-failure') continue
    for (const { step, position, cleanup } of positioned(scenario)) {
      const ruleless = step.assertions.some((a) => !a.ok && a.severity === 'failure' && a.rules.length === 0)
      if (step.status === 'error' || (step.status === 'failed' && ruleless))
        found.push({ scenario, step, position, cleanup })
    }
  }
  return found
}

function exampleIn(scenario: ReportedScenarioResult, rule: string): RuleExample | undefined {
  for (const { step, position, cleanup } of positioned(scenario)) {
    const assertions = step.assertions.filter((a) => !a.ok && a.severity === 'failure' && a.rules.includes(rule))
    if (assertions.length > 0) return { scenario, step, position, cleanup, assertions }
  }
  return undefined
}

function positioned(scenario: ReportedScenarioResult): { step: StepResult; position: number; cleanup: boolean }[] {
  return [
    ...scenario.steps.map((step, index) => ({ step, position: index + 1, cleanup: false })),
    ...scenario.cleanup.map((step, index) => ({ step, position: index + 1, cleanup: true })),
  ]
}

/** `activity-lifecycle, feed-shape and 3 more` */
export function listScenarios(scenarios: readonly { readonly id: string }[], shown = 3): string {
  const ids = scenarios.map((scenario) => scenario.id)
  if (ids.length <= shown) return ids.join(', ')
  return `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`
}
