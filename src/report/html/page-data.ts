import type {
  ReportedRunResult,
  ReportedRunSummary,
  ReportedScenarioResult,
  RuleStatus,
} from '../../model/reported-result.js'
import type { StepResult } from '../../model/result.js'
import { formatAssertion, formatDiagnostic, type RuleIndex } from '../text/format-diagnostic.js'
import {
  describeFailedStep,
  formatRuleExample,
  formatStepEvidence,
  isFailedStep,
  requestText,
  responseText,
  type EvidenceOptions,
} from '../text/evidence.js'
import { brokenRules } from '../text/failures-by-rule.js'
import { describeKnownFailure } from '../text/known-failure-text.js'
import {
  countOutcomes,
  describeOutcome,
  formatClosingLine,
  formatCounts,
  groupBySection,
  outcomeOf,
  type Outcome,
} from '../text/run-summary.js'
import type { FilterableScenario } from './filter.js'
import { buildPermissionGrid, type PermissionGrid } from './permission-grid.js'
import { notTestedLines } from '../text/not-tested-text.js'
import { formatRuleCoverage } from '../text/rule-coverage-text.js'

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
  /** The rule coverage line every output shows; empty for fuzz, whose report holds no plan of rules. */
  readonly coverageLine: string
  /** Each broken rule once, first on the page, with one example to jump to. */
  readonly failuresByRule: readonly PageBrokenRule[]
  readonly problems: readonly string[]
  /** One line per token flag not given, shown at the top and the bottom of the page. */
  readonly notTested: readonly string[]
  /** Route × credential, when the run held the permission matrix. */
  readonly permissionGrid?: PermissionGrid
}

export interface PageBrokenRule extends PageRule {
  readonly scenarios: readonly string[]
  readonly example?: { readonly scenario: string; readonly step: string; readonly evidence: string }
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
  /** Why a blocked step was not judged. */
  readonly blockReason?: string
  /** Failed checks and errors with rule, expected and actual; only for failed steps. */
  readonly evidence?: string
  readonly request?: string
  readonly response?: string
  readonly curl?: string
}

export interface PageRuleCoverage extends PageRule {
  readonly status: RuleStatus
  readonly failed: number
  readonly blocked: number
  readonly blockedBy: readonly string[]
  /** `outcome` is the scenario's, `ruleStatus` how that scenario judged this rule. */
  readonly scenarios: readonly { readonly id: string; readonly outcome: Outcome; readonly ruleStatus: RuleStatus }[]
}

export function buildPageData(
  result: ReportedRunResult,
  rules: RuleIndex,
  options: { ruleCoverage?: boolean } = {},
): PageData {
  const summary = result.summary
  return {
    target: result.target,
    strict: result.strict,
    startedAt: result.startedAt,
    closingLine: formatClosingLine(summary, result.durationMs, result.failedOnSkip),
    summary: {
      ...summary,
      expectedFailures: summary.expectedFailures ?? 0,
      unexpectedlyPassed: summary.unexpectedlyPassed ?? 0,
      skippedCells: summary.skippedCells ?? 0,
    },
    notTested: notTestedLines(result.notTested ?? []),
    sections: groupBySection(result.scenarios, rules).map(({ section, scenarios }) => ({
      section,
      counts: formatCounts(countOutcomes(scenarios)),
      scenarios: scenarios.map((scenario) => pageScenario(scenario, rules)),
    })),
    coverage: ruleCoverage(result),
    coverageLine: options.ruleCoverage === false ? '' : formatRuleCoverage(result.rules),
    failuresByRule: brokenRules(result).map((rule) => ({
      id: rule.verdict.id,
      section: rule.verdict.section,
      quote: rule.verdict.quote,
      scenarios: rule.scenarios.map((scenario) => scenario.id),
      ...(rule.example
        ? {
            example: {
              scenario: rule.example.scenario.id,
              step: describeFailedStep(rule.example),
              evidence: formatRuleExample(rule.example, { colors: false, rules, maxLines: 30 }),
            },
          }
        : {}),
    })),
    problems: result.diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, { colors: false, rules })),
    ...withPermissionGrid(result),
  }
}

function withPermissionGrid(result: ReportedRunResult): Pick<PageData, 'permissionGrid'> {
  const grid = buildPermissionGrid(result.scenarios)
  return grid ? { permissionGrid: grid } : {}
}

function pageScenario(scenario: ReportedScenarioResult, rules: RuleIndex): PageScenario {
  const options = { colors: false, rules, fallbackRules: scenario.rules, scenarioRules: scenario.rules }
  const steps = [
    ...scenario.steps.map((step) => pageStep(step, false, options)),
    ...scenario.cleanup.map((step) => pageStep(step, true, options)),
  ]
  const warnings = scenario.warnings.map((warning) => formatAssertion(warning, options))
  const known = scenario.knownFailure
  const searchable = [
    scenario.id,
    scenario.title,
    scenario.file,
    ...scenario.tags,
    ...scenario.rules,
    scenario.skipReason ?? '',
  ]
  for (const step of steps)
    searchable.push(step.name, ...step.checks.map((check) => check.message), step.evidence ?? '')
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    tags: scenario.tags,
    rules: scenario.rules.map((id) => pageRule(id, rules)),
    outcome: outcomeOf(scenario),
    outcomeLabel: describeOutcome(scenario),
    durationMs: scenario.durationMs,
    skipReason: scenario.skipReason,
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
    blockReason: step.block?.reason,
    checks: step.assertions.map(({ ok, severity, message }) => ({ ok, severity, message })),
    ...(isFailedStep(step) ? { evidence: formatStepEvidence(step, { ...options, transcript: false }) } : {}),
    ...(step.request ? { request: requestText(step.request) } : {}),
    ...(step.response ? { response: responseText(step.response) } : {}),
    curl: step.curl,
  }
}

function pageRule(id: string, rules: RuleIndex): PageRule {
  const rule = rules.get(id)
  return { id, section: rule?.section ?? '', quote: rule?.quote ?? '' }
}

/** The run's rule verdicts (judged once, by the finalize stage) as table rows. */
function ruleCoverage(result: ReportedRunResult): PageRuleCoverage[] {
  const outcomes = new Map(result.scenarios.map((scenario) => [scenario.id, outcomeOf(scenario)]))
  return result.rules.map((verdict) => ({
    id: verdict.id,
    section: verdict.section,
    quote: verdict.quote,
    status: verdict.status,
    failed: verdict.failed,
    blocked: verdict.blocked,
    blockedBy: verdict.blockedBy,
    scenarios: verdict.scenarios.map((entry) => ({
      id: entry.id,
      outcome: outcomes.get(entry.id) ?? 'skipped',
      ruleStatus: entry.status,
    })),
  }))
}
