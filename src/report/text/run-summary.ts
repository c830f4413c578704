import type { RuleIndex } from './format-diagnostic.js'
import type { ReportedRunSummary, ReportedScenarioResult } from '../../model/reported-result.js'
import type { SkipCount, StepResult } from '../../model/result.js'
import { countSkips } from '../../model/skip-count.js'

/** Shared by every reporter so the same run reads the same everywhere. */

const NO_SECTION = '(no spec section)'

/** What grouping by section reads of a scenario: its rules, and its steps when it ran. */
export interface Sectioned {
  readonly rules: readonly string[]
  readonly steps?: readonly StepResult[]
  readonly cleanup?: readonly StepResult[]
}

/**
 * A failed scenario counts under the section of the first rule it broke (a broken rule of §2.3 met
 * in a §4 lifecycle is a §2.3 failure); any other scenario under its first rule's section.
 * Only the section's first part counts ("§2.2; §4 rule 2" → "§2.2").
 */
function sectionOf(scenario: Sectioned, rules: RuleIndex): string {
  const rule = firstBrokenRule(scenario) ?? scenario.rules[0]
  const section = rule === undefined ? undefined : rules.get(rule)?.section
  return section?.split(';')[0]?.trim() || NO_SECTION
}

/** The rule of the first failed (not warning) check, in step order, cleanup last. */
function firstBrokenRule(scenario: Sectioned): string | undefined {
  for (const step of [...(scenario.steps ?? []), ...(scenario.cleanup ?? [])]) {
    const broken = step.assertions.find(
      (assertion) => !assertion.ok && assertion.severity === 'failure' && assertion.rules.length > 0,
    )
    if (broken) return broken.rules[0]
  }
  return undefined
}

export interface SectionGroup<T> {
  readonly section: string
  readonly scenarios: readonly T[]
}

/** Groups in spec order (§1 < §2.2 < §4 rule 2 < §10), scenarios keep their order inside a group. */
export function groupBySection<T extends Sectioned>(scenarios: readonly T[], rules: RuleIndex): SectionGroup<T>[] {
  const groups = new Map<string, T[]>()
  for (const scenario of scenarios) {
    const section = sectionOf(scenario, rules)
    const group = groups.get(section) ?? []
    group.push(scenario)
    groups.set(section, group)
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([section, members]) => ({ section, scenarios: members }))
}

function compareSections(a: string, b: string): number {
  if (a === NO_SECTION || b === NO_SECTION) return a === b ? 0 : a === NO_SECTION ? 1 : -1
  return a.localeCompare(b, 'en', { numeric: true })
}

export type Outcome = 'passed' | 'failed' | 'skipped' | 'expected-failure' | 'unexpectedly-passed'

export function outcomeOf(scenario: ReportedScenarioResult): Outcome {
  const expectation = scenario.expectation
  if (scenario.status === 'failed' && expectation === 'expected-failure') return 'expected-failure'
  if (scenario.status === 'passed' && expectation === 'unexpectedly-passed') return 'unexpectedly-passed'
  return scenario.status
}

const MARKS: Readonly<Record<Outcome, string>> = {
  passed: '✓',
  failed: '✘',
  skipped: '-',
  'expected-failure': '✘',
  'unexpectedly-passed': '✘',
}

const LABELS: Readonly<Record<Outcome, string>> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  'expected-failure': 'failed as expected',
  'unexpectedly-passed': 'unexpectedly passed',
}

export function markOf(scenario: ReportedScenarioResult): string {
  return MARKS[outcomeOf(scenario)]
}

/** `passed`, `failed as expected`, `passed, 2 warnings`, `passed, 3 permission-matrix cells skipped` … */
export function describeOutcome(scenario: ReportedScenarioResult): string {
  const label = LABELS[outcomeOf(scenario)]
  const warnings = scenario.warnings.length
  const cells = countSkips([scenario]).cells
  return [
    label,
    warnings > 0 ? plural(warnings, 'warning') : '',
    cells > 0 ? `${plural(cells, 'permission-matrix cell')} skipped (token not given)` : '',
  ]
    .filter(Boolean)
    .join(', ')
}

/** A scenario that ran but skipped some of its permission-matrix cells: not wholly tested. */
export function hasSkippedCells(scenario: ReportedScenarioResult): boolean {
  return countSkips([scenario]).cells > 0
}

export interface OutcomeCounts {
  passed: number
  failed: number
  skipped: number
  warnings: number
  expectedFailures: number
  unexpectedlyPassed: number
}

export function countOutcomes(scenarios: readonly ReportedScenarioResult[]): OutcomeCounts {
  const counts: OutcomeCounts = {
    passed: 0,
    failed: 0,
    skipped: 0,
    warnings: 0,
    expectedFailures: 0,
    unexpectedlyPassed: 0,
  }
  for (const scenario of scenarios) {
    const outcome = outcomeOf(scenario)
    if (outcome === 'expected-failure') counts.expectedFailures++
    else counts[scenario.status]++
    if (outcome === 'unexpectedly-passed') counts.unexpectedlyPassed++
    counts.warnings += scenario.warnings.length
  }
  return counts
}

/** `3 passed, 1 failed, 2 warnings`: only the non-zero counts (a section line). */
export function formatCounts(counts: OutcomeCounts): string {
  const parts = [
    counts.passed > 0 ? `${counts.passed} passed` : '',
    counts.failed > 0 ? `${counts.failed} failed` : '',
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
    counts.warnings > 0 ? plural(counts.warnings, 'warning') : '',
    counts.expectedFailures > 0 ? plural(counts.expectedFailures, 'expected failure') : '',
    counts.unexpectedlyPassed > 0 ? `${counts.unexpectedlyPassed} unexpectedly passed` : '',
  ]
  return parts.filter(Boolean).join(', ') || 'nothing ran'
}

/**
 * The closing line CI parsers read; it always starts with "N passed, N failed":
 * `12 passed, 1 failed, 2 skipped, 3 warnings (3.4s)`.
 */
export function formatClosingLine(summary: ReportedRunSummary, durationMs: number, failedOnSkip?: SkipCount): string {
  const cells = summary.skippedCells ?? 0
  const parts = [
    `${summary.passed} passed`,
    `${summary.failed} failed`,
    `${summary.skipped} skipped${cells > 0 ? ` (and ${plural(cells, 'permission-matrix cell')})` : ''}`,
    plural(summary.warnings, 'warning'),
  ]
  if (summary.expectedFailures) parts.push(plural(summary.expectedFailures, 'expected failure'))
  if (summary.unexpectedlyPassed) parts.push(`${summary.unexpectedlyPassed} unexpectedly passed`)
  const mostlySkipped =
    summary.total > 0 && summary.skipped * 2 > summary.total
      ? ` — more than half of the scenarios were skipped, so most of the spec was not tested`
      : ''
  // --fail-on-skip's verdict sits next to the counts it judges, in every output.
  const skipFailure = failedOnSkip
    ? ` — FAILED by --fail-on-skip: ${plural(failedOnSkip.scenarios, 'scenario')} and ${plural(failedOnSkip.cells, 'permission-matrix cell')} skipped`
    : ''
  return `${parts.join(', ')} (${(durationMs / 1000).toFixed(1)}s)${skipFailure}${mostlySkipped}`
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
