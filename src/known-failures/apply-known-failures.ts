import type { RunResult, RunSummary, ScenarioResult } from '../model/result.js'
import type {
  KnownFailureNote,
  KnownFailureReport,
  ReportedRunSummary,
  ReportedScenarioResult,
} from '../model/reported-result.js'
import type { KnownFailure } from './known-failures.js'

/*
 * Known failures gate CI on *new* failures:
 * - a failed scenario is an expected failure when every one of its problems is covered: by an entry
 *   naming the scenario (alone), or by an entry whose rule is among the failed check's rules;
 *   a transport error is covered only by a scenario entry;
 * - an entry is stale when every scenario it selects that ran has passed, which fails the run so the
 *   list stays honest. It is reported once, as the entry it is: a scenario entry through its scenario,
 *   a rule entry as "RULE now passes: remove this entry" (never through every scenario that merely
 *   names the rule, which would blame scenarios that have nothing to fix).
 */

export interface KnownFailuresApplied {
  readonly scenarios: readonly ReportedScenarioResult[]
  readonly summary: ReportedRunSummary
  /** Absent when no known-failures file was given. */
  readonly knownFailures?: readonly KnownFailureReport[]
}

/** The scenarios with `expectation` and `knownFailure` set, the summary counted again, and what became of each entry. */
export function applyKnownFailures(
  result: Pick<RunResult, 'scenarios' | 'summary'>,
  known: readonly KnownFailure[],
): KnownFailuresApplied {
  if (known.length === 0)
    return { scenarios: result.scenarios, summary: { ...result.summary, expectedFailures: 0, unexpectedlyPassed: 0 } }
  const reports = known.map((entry) => reportEntry(entry, result.scenarios))
  const stale = known.filter(
    (entry, index) => reports[index]?.outcome === 'unexpectedly-passed' && entry.scenario !== undefined,
  )
  const staleRuleEntries = reports.filter(
    (report) => report.outcome === 'unexpectedly-passed' && report.scenario === undefined,
  ).length
  const scenarios = result.scenarios.map((scenario) => {
    const marked = markScenario(scenario, known)
    if (marked.expectation !== undefined || scenario.status !== 'passed') return marked
    const entry = stale.find((candidate) => selects(candidate, scenario))
    return entry ? { ...scenario, expectation: 'unexpectedly-passed' as const, knownFailure: note(entry) } : marked
  })
  const count = (test: (scenario: ReportedScenarioResult) => boolean): number => scenarios.filter(test).length
  const summary: RunSummary = result.summary
  return {
    scenarios,
    knownFailures: reports,
    summary: {
      ...summary,
      failed: count((scenario) => scenario.status === 'failed' && scenario.expectation !== 'expected-failure'),
      expectedFailures: count((scenario) => scenario.expectation === 'expected-failure'),
      unexpectedlyPassed: count((scenario) => scenario.expectation === 'unexpectedly-passed') + staleRuleEntries,
    },
  }
}

/**
 * What can be decided from one scenario alone (used while the run goes on): covered failures, and
 * passes of scenarios listed by id. Stale rule entries need the whole run (applyKnownFailures).
 */
export function markScenario(scenario: ScenarioResult, known: readonly KnownFailure[]): ReportedScenarioResult {
  if (scenario.status === 'failed') {
    const covering = coveringEntry(scenario, known)
    return covering ? { ...scenario, expectation: 'expected-failure', knownFailure: note(covering) } : scenario
  }
  if (scenario.status === 'passed') {
    const entry = known.find((candidate) => candidate.scenario === scenario.id)
    return entry ? { ...scenario, expectation: 'unexpectedly-passed', knownFailure: note(entry) } : scenario
  }
  return scenario
}

interface Problem {
  readonly rules: readonly string[]
  /** Transport errors, timeouts: only an entry for the whole scenario covers them. */
  readonly isError: boolean
}

function problemsOf(scenario: ScenarioResult): Problem[] {
  const problems: Problem[] = []
  for (const step of [...scenario.steps, ...scenario.cleanup]) {
    if (step.status !== 'failed' && step.status !== 'error') continue
    const assertions = step.assertions.filter((assertion) => !assertion.ok && assertion.severity === 'failure')
    for (const assertion of assertions) {
      problems.push({ rules: assertion.rules.length > 0 ? assertion.rules : scenario.rules, isError: false })
    }
    if (step.error) problems.push({ rules: [], isError: true })
    if (assertions.length === 0 && !step.error) problems.push({ rules: scenario.rules, isError: false })
  }
  return problems
}

function coveringEntry(scenario: ScenarioResult, known: readonly KnownFailure[]): KnownFailure | undefined {
  const problems = problemsOf(scenario)
  if (problems.length === 0) return undefined
  const whole = known.find((entry) => entry.scenario === scenario.id && entry.rule === undefined)
  if (whole) return whole
  const byRule = known.filter(
    (entry) => entry.rule !== undefined && (entry.scenario === undefined || entry.scenario === scenario.id),
  )
  const covers = (problem: Problem): KnownFailure | undefined =>
    problem.isError ? undefined : byRule.find((entry) => problem.rules.includes(entry.rule ?? ''))
  const entries = problems.map(covers)
  return entries.every((entry) => entry !== undefined) ? entries[0] : undefined
}

function selects(entry: KnownFailure, scenario: ScenarioResult): boolean {
  if (entry.scenario !== undefined && entry.scenario !== scenario.id) return false
  if (entry.rule === undefined) return true
  return (
    scenario.rules.includes(entry.rule) ||
    scenario.steps.some((step) => step.assertions.some((assertion) => assertion.rules.includes(entry.rule ?? '')))
  )
}

function reportEntry(entry: KnownFailure, scenarios: readonly ScenarioResult[]): KnownFailureReport {
  const selected = scenarios.filter((scenario) => selects(entry, scenario))
  const ran = selected.filter((scenario) => scenario.status !== 'skipped')
  const outcome =
    ran.length === 0
      ? 'not-run'
      : ran.every((scenario) => scenario.status === 'passed')
        ? 'unexpectedly-passed'
        : 'failed-as-expected'
  return { ...note(entry), outcome, scenarios: selected.map((scenario) => scenario.id) }
}

function note(entry: KnownFailure): KnownFailureNote {
  return {
    reason: entry.reason,
    ...(entry.link === undefined ? {} : { link: entry.link }),
    ...(entry.scenario === undefined ? {} : { scenario: entry.scenario }),
    ...(entry.rule === undefined ? {} : { rule: entry.rule }),
  }
}
