import type { ReportedScenarioResult, RuleScenarioVerdict, RuleStatus, RuleVerdict } from './reported-result.js'
import type { StepResult } from './result.js'
import type { Rule } from './scenario.js'

/*
 * Blame exactly: a rule fails only when a check tagged with it failed. A step behind a failed step
 * is blocked and judges nothing; the scenario's own rule list blames nothing. Pure: the same result
 * always gives the same verdicts, and every reporter reads these instead of judging again.
 */

/** Worst first: the order in which one scenario's judgements of a rule are combined. */
const PRECEDENCE: readonly RuleStatus[] = [
  'failed',
  'expected-failure',
  'error',
  'warning',
  'passed',
  'blocked',
  'skipped',
  'not-covered',
]

export function computeRuleVerdicts(
  scenarios: readonly ReportedScenarioResult[],
  catalogue: readonly Rule[],
): RuleVerdict[] {
  const judged = new Map<string, Map<string, RuleScenarioVerdict['status']>>()
  const blockers = new Map<string, Set<string>>()
  const note = (rule: string, scenario: string, status: RuleScenarioVerdict['status']): void => {
    const byScenario = judged.get(rule) ?? new Map<string, RuleScenarioVerdict['status']>()
    judged.set(rule, byScenario)
    byScenario.set(scenario, worst(byScenario.get(scenario), status))
  }
  for (const scenario of scenarios) {
    if (scenario.status === 'skipped' && scenario.steps.length === 0) {
      for (const rule of scenario.rules) note(rule, scenario.id, 'skipped')
      continue
    }
    const failedAs = scenario.expectation === 'expected-failure' ? 'expected-failure' : 'failed'
    for (const step of [...scenario.steps, ...scenario.cleanup]) {
      for (const [rule, status] of judgeStep(step, failedAs)) note(rule, scenario.id, status)
      if (step.status === 'blocked') {
        for (const rule of step.rules ?? []) {
          const set = blockers.get(rule) ?? new Set<string>()
          for (const by of step.block?.byRules ?? []) set.add(by)
          blockers.set(rule, set)
        }
      }
    }
  }
  const ids = catalogue.filter((rule) => rule.appliesTo === 'server' && !rule.retired).map((rule) => rule.id)
  for (const id of judged.keys()) if (!ids.includes(id)) ids.push(id)
  const byId = new Map(catalogue.map((rule) => [rule.id, rule]))
  const verdicts = ids.map((id): RuleVerdict => {
    const byScenario = [...(judged.get(id) ?? new Map<string, RuleScenarioVerdict['status']>()).entries()].map(
      ([scenario, status]) => ({ id: scenario, status }),
    )
    const count = (status: RuleStatus): number => byScenario.filter((entry) => entry.status === status).length
    const status = byScenario.reduce<RuleStatus>((acc, entry) => worst(acc, entry.status), 'not-covered')
    return {
      id,
      section: byId.get(id)?.section ?? '',
      quote: byId.get(id)?.quote ?? '',
      status,
      failed: count('failed'),
      blocked: count('blocked'),
      scenarios: byScenario,
      blockedBy: [...(blockers.get(id) ?? [])].filter((by) => by !== id).sort(),
    }
  })
  const rank = (verdict: RuleVerdict): number => (verdict.status === 'failed' ? 0 : 1)
  return verdicts
    .map((verdict, index) => ({ verdict, index }))
    .sort((a, b) => rank(a.verdict) - rank(b.verdict) || a.index - b.index)
    .map(({ verdict }) => verdict)
}

/** What one step says about each rule it names. */
function judgeStep(
  step: StepResult,
  failedAs: 'failed' | 'expected-failure',
): Map<string, RuleScenarioVerdict['status']> {
  const verdicts = new Map<string, RuleScenarioVerdict['status']>()
  const set = (rule: string, status: RuleScenarioVerdict['status']): void => {
    verdicts.set(rule, worst(verdicts.get(rule), status))
  }
  if (step.status === 'blocked') {
    for (const rule of step.rules ?? []) set(rule, 'blocked')
    return verdicts
  }
  if (step.status === 'skipped') {
    for (const rule of step.rules ?? []) set(rule, 'skipped')
    return verdicts
  }
  if (step.status === 'error') for (const rule of step.rules ?? []) set(rule, 'error')
  for (const assertion of step.assertions) {
    // A check whose `when` did not hold judged nothing: a rule that only such checks name is skipped, never passed.
    const status = assertion.notJudged
      ? 'skipped'
      : assertion.ok
        ? 'passed'
        : assertion.severity === 'warning'
          ? 'warning'
          : failedAs
    for (const rule of assertion.rules) set(rule, status)
  }
  return verdicts
}

function worst<S extends RuleStatus>(a: S | undefined, b: S): S {
  if (a === undefined) return b
  return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b) ? a : b
}
