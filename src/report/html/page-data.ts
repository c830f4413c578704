import type { RunResult, ScenarioResult, StepResult } from '../../model/result.js'
import { formatAssertion, formatDiagnostic, type RuleIndex } from '../format-diagnostic.js'
import { formatStepEvidence, isFailedStep, requestText, responseText, type EvidenceOptions } from '../evidence.js'
import { describeKnownFailure, knownFailureOf, type ReportedRunSummary } from '../reported-result.js'
import { countOutcomes, describeOutcome, formatClosingLine, formatCounts, groupBySection, outcomeOf, type Outcome } from '../run-summary.js'
import type { FilterableScenario } from './filter.js'
import { buildPermissionGrid, type PermissionGrid } from './permission-grid.js'

/*
 * What the HTML page renders, prepared here so the page only lays text out: every string is set with
 * textContent there, never parsed as HTML. Evidence is the same text the console and JUnit show.
 */

export interface PageData {
  readonly target: string
  readonly strict: boolean
  readonly startedAt: string
  readonly closingLine: string
  readonly summary: Required<ReportedRunSummary>
  readonly sections: readonly PageSection[]
  readonly coverage: readonly PageRuleCoverage[]
  readonly problems: readonly string[]
  /** Route × credential, when the run held the permission matrix. */
  readonly permissionGrid?: PermissionGrid
}

export interface PageSection {
  readonly section: string
  readonly counts: string
  readonly scenarios: readonly PageScenario[]
}

export interface PageScenario extends FilterableScenario {
  readonly id: string
  readonly title: string
  readonly file: string
  readonly rules: readonly PageRule[]
  readonly outcomeLabel: string
  readonly durationMs: number
  readonly skipReason?: string
  readonly knownFailure?: string
  readonly warnings: readonly string[]
  readonly steps: readonly PageStep[]
}

export interface PageRule {
  readonly id: string
  readonly section: string
  readonly quote: string
}

export interface PageStep {
  readonly name: string
  readonly cleanup: boolean
  readonly status: string
  readonly durationMs: number
  readonly attempts: number
  readonly checks: readonly { readonly ok: boolean; readonly severity: string; readonly message: string }[]
  /** Failed checks and errors with rule, expected and actual; only for failed steps. */
  readonly evidence?: string
  readonly request?: string
  readonly response?: string
  readonly curl?: string
}

export interface PageRuleCoverage extends PageRule {
  readonly status: 'failed' | 'warning' | 'passed' | 'skipped' | 'not covered'
  readonly scenarios: readonly { readonly id: string; readonly outcome: Outcome }[]
}

export function buildPageData(result: RunResult, rules: RuleIndex): PageData {
  const summary = result.summary as ReportedRunSummary
  return {
    target: result.target,
    strict: result.strict,
    startedAt: result.startedAt,
    closingLine: formatClosingLine(summary, result.durationMs),
    summary: { ...summary, expectedFailures: summary.expectedFailures ?? 0, unexpectedlyPassed: summary.unexpectedlyPassed ?? 0 },
    sections: groupBySection(result.scenarios, rules).map(({ section, scenarios }) => ({
      section,
      counts: formatCounts(countOutcomes(scenarios)),
      scenarios: scenarios.map((scenario) => pageScenario(scenario, rules)),
    })),
    coverage: ruleCoverage(result.scenarios, rules),
    problems: result.diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, { colors: false, rules })),
    ...withPermissionGrid(result),
  }
}

function withPermissionGrid(result: RunResult): Pick<PageData, 'permissionGrid'> {
  const grid = buildPermissionGrid(result.scenarios)
  return grid ? { permissionGrid: grid } : {}
}

function pageScenario(scenario: ScenarioResult, rules: RuleIndex): PageScenario {
  const options = { colors: false, rules, fallbackRules: scenario.rules, scenarioRules: scenario.rules }
  const steps = [
    ...scenario.steps.map((step) => pageStep(step, false, options)),
    ...scenario.cleanup.map((step) => pageStep(step, true, options)),
  ]
  const warnings = scenario.warnings.map((warning) => formatAssertion(warning, options))
  const known = knownFailureOf(scenario)
  const searchable = [scenario.id, scenario.title, scenario.file, ...scenario.tags, ...scenario.rules, scenario.skipReason ?? '']
  for (const step of steps) searchable.push(step.name, ...step.checks.map((check) => check.message), step.evidence ?? '')
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    tags: scenario.tags,
    rules: scenario.rules.map((id) => pageRule(id, rules)),
    outcome: outcomeOf(scenario),
    outcomeLabel: describeOutcome(scenario),
    durationMs: scenario.durationMs,
    ...(scenario.skipReason ? { skipReason: scenario.skipReason } : {}),
    ...(known ? { knownFailure: describeKnownFailure(known) } : {}),
    warningCount: warnings.length,
    warnings,
    steps,
    searchText: searchable.join('\n').toLowerCase(),
  }
}

function pageStep(step: StepResult, cleanup: boolean, options: EvidenceOptions): PageStep {
  return {
    name: step.name,
    cleanup,
    status: step.status,
    durationMs: step.durationMs,
    attempts: step.attempts,
    checks: step.assertions.map(({ ok, severity, message }) => ({ ok, severity, message })),
    ...(isFailedStep(step) ? { evidence: formatStepEvidence(step, { ...options, transcript: false }) } : {}),
    ...(step.request ? { request: requestText(step.request) } : {}),
    ...(step.response ? { response: responseText(step.response) } : {}),
    ...(step.curl ? { curl: step.curl } : {}),
  }
}

function pageRule(id: string, rules: RuleIndex): PageRule {
  const rule = rules.get(id)
  return { id, section: rule?.section ?? '', quote: rule?.quote ?? '' }
}

/** Rule → scenarios → status, for every server rule of the catalogue and any rule a scenario names. */
function ruleCoverage(scenarios: readonly ScenarioResult[], rules: RuleIndex): PageRuleCoverage[] {
  const ids = [...rules.values()].filter((rule) => rule.appliesTo === 'server').map((rule) => rule.id)
  for (const scenario of scenarios) for (const id of scenario.rules) if (!ids.includes(id)) ids.push(id)
  return ids.map((id) => {
    const covering = scenarios.filter((scenario) => scenario.rules.includes(id) || mentionsRule(scenario, id))
    const outcomes = covering.map((scenario) => ({ id: scenario.id, outcome: outcomeOf(scenario) }))
    const warned = covering.some((scenario) => scenario.warnings.some((warning) => warning.rules.includes(id)))
    return { ...pageRule(id, rules), status: coverageStatus(outcomes.map(({ outcome }) => outcome), warned), scenarios: outcomes }
  })
}

function mentionsRule(scenario: ScenarioResult, id: string): boolean {
  return scenario.steps.some((step) => step.assertions.some((assertion) => assertion.rules.includes(id)))
}

function coverageStatus(outcomes: readonly Outcome[], warned: boolean): PageRuleCoverage['status'] {
  if (outcomes.length === 0) return 'not covered'
  if (outcomes.some((outcome) => outcome !== 'passed' && outcome !== 'skipped')) return 'failed'
  if (warned) return 'warning'
  return outcomes.includes('passed') ? 'passed' : 'skipped'
}
