import type { RunResult, RunSummary, ScenarioResult } from '../model/result.js'

/*
 * Fields that known-failure gating (src/expectations) adds to a result. They are optional, so a plain
 * RunResult is a ReportedRunResult too and every reporter reads them through the helpers below.
 * TODO(issue 6): move these fields into src/model/result.ts and keep only the helpers here.
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
  readonly expectedFailures?: number
  /** Passed scenarios listed as known failures; counted in `passed` and failing the run. */
  readonly unexpectedlyPassed?: number
}

/** What became of one entry of the known-failures file. */
export interface KnownFailureReport extends KnownFailureNote {
  readonly outcome: 'failed-as-expected' | 'unexpectedly-passed' | 'not-run'
  /** Ids of the scenarios the entry selected. */
  readonly scenarios: readonly string[]
}

export interface ReportedRunResult extends RunResult {
  readonly summary: ReportedRunSummary
  readonly scenarios: readonly ReportedScenarioResult[]
  readonly knownFailures?: readonly KnownFailureReport[]
}

export function expectationOf(scenario: ScenarioResult): ScenarioExpectation | undefined {
  return (scenario as ReportedScenarioResult).expectation
}

export function knownFailureOf(scenario: ScenarioResult): KnownFailureNote | undefined {
  return (scenario as ReportedScenarioResult).knownFailure
}

/** A scenario that makes the run fail: a failure nobody expected, or a known failure that now passes. */
export function isFailingScenario(scenario: ScenarioResult): boolean {
  const expectation = expectationOf(scenario)
  if (scenario.status === 'failed') return expectation !== 'expected-failure'
  return expectation === 'unexpectedly-passed'
}

/** True when the run must exit non-zero because of its scenarios (reporter errors are counted apart). */
export function isFailingRun(result: RunResult): boolean {
  return result.scenarios.some(isFailingScenario)
}

/** `pageSize is ignored (https://tracker/12)`: the reason a scenario is listed as a known failure. */
export function describeKnownFailure(known: KnownFailureNote | undefined): string {
  if (!known) return 'no reason given'
  return known.link ? `${known.reason} (${known.link})` : known.reason
}
