import type { RunResult, RunSummary, ScenarioResult } from './result.js'

/*
 * What reporters and the exit code receive: the run's result after the finalize stage
 * (src/execute/finalize/finalize-run.ts) applied known failures and personal-data masking and judged every
 * rule. Computed once; nothing downstream reshapes it.
 */

/** Set on a scenario listed in an --expect-failures file. */
export type ScenarioExpectation = 'expected-failure' | 'unexpectedly-passed'

/** The entry of the known-failures file that matched a scenario. */
export interface KnownFailureNote {
  readonly reason: string
  readonly link?: string
  readonly scenario?: string
  readonly rule?: string
}

export interface ReportedScenarioResult extends ScenarioResult {
  readonly expectation?: ScenarioExpectation
  readonly knownFailure?: KnownFailureNote
}

export interface ReportedRunSummary extends RunSummary {
  /** Failed scenarios covered by a known failure; not counted in `failed`. */
  readonly expectedFailures: number
  /**
   * Known failures that now pass, failing the run: scenarios listed by id that passed (counted in `passed` too), and
   * rule entries whose every scenario passed (one each).
   */
  readonly unexpectedlyPassed: number
}

/** What became of one entry of the known-failures file. */
export interface KnownFailureReport extends KnownFailureNote {
  readonly outcome: 'failed-as-expected' | 'unexpectedly-passed' | 'not-run'
  /** Ids of the scenarios the entry selected. */
  readonly scenarios: readonly string[]
}

/**
 * A rule's verdict, from the checks tagged with it (never from the scenario's rule list):
 * - `failed`: a check tagged with it failed (in a scenario not covered by --expect-failures);
 * - `expected-failure`: it failed only where a known failure covers it;
 * - `error`: a step that judges it could not be judged (transport error, timeout);
 * - `warning`: only warning-level checks of it failed;
 * - `passed`: its checks passed wherever they ran;
 * - `blocked`: every step that judges it was blocked by an earlier failure: not judged;
 * - `skipped`: the scenarios that judge it were skipped, or each of its checks that ran was not judged (a `when`
 *   that did not hold);
 * - `not-covered`: no scenario of this run judges it.
 */
export type RuleStatus =
  'failed' | 'expected-failure' | 'error' | 'warning' | 'passed' | 'blocked' | 'skipped' | 'not-covered'

/** How one scenario judged one rule. */
export interface RuleScenarioVerdict {
  readonly id: string
  readonly status: Exclude<RuleStatus, 'not-covered'>
}

export interface RuleVerdict {
  readonly id: string
  /** From suites/rules.yaml; empty for a rule id the catalogue does not know. */
  readonly section: string
  readonly quote: string
  readonly status: RuleStatus
  /** Scenarios in which a check tagged with this rule failed. */
  readonly failed: number
  /** Scenarios in which a step judging this rule was blocked. */
  readonly blocked: number
  readonly scenarios: readonly RuleScenarioVerdict[]
  /** The rule ids whose failures blocked this one's steps. */
  readonly blockedBy: readonly string[]
}

export interface ReportedRunResult extends RunResult {
  readonly summary: ReportedRunSummary
  readonly scenarios: readonly ReportedScenarioResult[]
  readonly knownFailures?: readonly KnownFailureReport[]
  /** Every rule of the catalogue and every rule a check names, failed first, then in catalogue order. */
  readonly rules: readonly RuleVerdict[]
}

/** A scenario that makes the run fail: a failure nobody expected, or a known failure that now passes. */
export function isFailingScenario(scenario: ReportedScenarioResult): boolean {
  if (scenario.status === 'failed') return scenario.expectation !== 'expected-failure'
  return scenario.expectation === 'unexpectedly-passed'
}

/** True when the run must exit non-zero because of its scenarios or its own problems. */
export function isFailingRun(result: ReportedRunResult): boolean {
  return (
    result.scenarios.some(isFailingScenario) || result.diagnostics.length > 0 || staleRuleEntries(result).length > 0
  )
}

/** Entries of the known-failures file listed by rule alone whose scenarios all passed: each to be removed from the list. */
export function staleRuleEntries(result: Pick<ReportedRunResult, 'knownFailures'>): KnownFailureReport[] {
  return (result.knownFailures ?? []).filter(
    (report) => report.outcome === 'unexpectedly-passed' && report.scenario === undefined,
  )
}
