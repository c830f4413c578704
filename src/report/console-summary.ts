import type { ReportedRunResult, ReportedScenarioResult } from '../model/reported-result.js'
import { formatAssertion, formatDiagnostic, type FormatOptions, type RuleIndex } from './text/format-diagnostic.js'
import { describeFailedStep, failedAssertions, formatRuleExample, formatScenarioEvidence } from './text/evidence.js'
import { brokenRules, listScenarios, unjudgedSteps, type BrokenRule } from './text/failures-by-rule.js'
import type { MissingToken } from '../model/reporter.js'
import { describeKnownFailure, describeStaleRuleEntry } from './text/known-failure-text.js'
import { staleRuleEntries } from '../model/reported-result.js'
import { NOT_TESTED_HEADING, notTestedLines } from './text/not-tested-text.js'
import { countOutcomes, formatClosingLine, formatCounts, groupBySection, outcomeOf } from './text/run-summary.js'
import { formatRuleCoverage } from './text/rule-coverage-text.js'
import { createStyler, type Styler } from './text/text-style.js'
import { truncateText } from '../shared/format-value.js'
import { formatDuration } from './text/values.js'

export interface ConsoleSummaryOptions {
  readonly colors: boolean
  readonly rules: RuleIndex
  /** Every failure with its full evidence, grouped by scenario, after the failures by rule. */
  readonly verbose?: boolean
  /** Token flags that were not given, and how many scenarios each would have run. */
  readonly missingTokens?: readonly MissingToken[]
  /** A fuzz run: its report holds the reproduction, not the generated sequences, so no section counts or rule coverage. */
  readonly generated?: boolean
}

/** Lines one broken rule may take on the console, its example included. */
const CONSOLE_LINES_PER_RULE = 40
const EXAMPLE_MAX_LINES = CONSOLE_LINES_PER_RULE - 6
const UNJUDGED_SHOWN = 10

/**
 * The end-of-run text, in the order a reader needs it: failures by rule (each broken rule once, with
 * one example), steps that could not be judged, with --verbose every failure, known failures,
 * warnings and skips in a line each, problems of the run, counts per section, a banner for missing
 * tokens, and the plain closing line last.
 */
export function formatConsoleSummary(result: ReportedRunResult, options: ConsoleSummaryOptions): string {
  const style = createStyler(options.colors)
  const formatOptions: FormatOptions = { colors: options.colors, rules: options.rules }
  const byOutcome = (outcome: ReturnType<typeof outcomeOf>): ReportedScenarioResult[] =>
    result.scenarios.filter((scenario) => outcomeOf(scenario) === outcome)
  const blocks: string[] = []

  const broken = brokenRules(result)
  if (broken.length > 0) {
    const body = broken.map((rule) => brokenRuleBlock(rule, formatOptions, style))
    blocks.push(
      `${heading(`Failures by rule (${broken.length} ${broken.length === 1 ? 'rule' : 'rules'} broken)`, style.red, style)}\n${body.join('\n\n')}`,
    )
  }
  const unjudged = unjudgedSteps(result)
  if (unjudged.length > 0) {
    const lines = unjudged
      .slice(0, UNJUDGED_SHOWN)
      .map(
        ({ scenario, step, position, cleanup }) =>
          `${style.red('✘')} ${scenario.id}, ${describeFailedStep({ step, position, cleanup })}: ${step.error?.message ?? failedAssertions(step).find((a) => a.rules.length === 0)?.message ?? ''}`,
      )
    if (unjudged.length > UNJUDGED_SHOWN)
      lines.push(style.dim(`… and ${unjudged.length - UNJUDGED_SHOWN} more (--verbose lists them)`))
    blocks.push(
      `${heading(`Failed outside any rule (${unjudged.length} steps)`, style.red, style)}\n${lines.join('\n')}`,
    )
  }
  const failed = byOutcome('failed')
  if (options.verbose && failed.length > 0) {
    const body = groupBySection(failed, options.rules).map(
      ({ section, scenarios }) =>
        `${style.bold(section)}\n${scenarios.map((scenario) => failureBlock(scenario, formatOptions, style)).join('\n\n')}`,
    )
    blocks.push(`${heading(`Every failure (${failed.length} scenarios)`, style.red, style)}\n${body.join('\n\n')}`)
  }
  const unexpected = byOutcome('unexpectedly-passed')
  const staleRules = staleRuleEntries(result)
  if (unexpected.length + staleRules.length > 0) {
    const lines = [
      ...staleRules.map((report) => `${style.red('✘')} ${describeStaleRuleEntry(report)}`),
      ...unexpected.map(
        (scenario) =>
          `${style.red('✘')} ${scenario.id} ${scenario.title}: passed, but is listed as a known failure (${describeKnownFailure(scenario.knownFailure)}); remove it from the list`,
      ),
    ]
    blocks.push(`${heading(`Unexpectedly passed (${lines.length})`, style.red, style)}\n${lines.join('\n')}`)
  }
  const expected = byOutcome('expected-failure')
  if (expected.length > 0) {
    const lines = expected.map(
      (scenario) =>
        `${style.yellow('✘')} ${scenario.id} ${scenario.title}: ${describeKnownFailure(scenario.knownFailure)}`,
    )
    blocks.push(
      `${heading(`Known failures, not failing the run (${expected.length})`, style.yellow, style)}\n${lines.join('\n')}`,
    )
  }
  const warned = result.scenarios.filter((scenario) => scenario.warnings.length > 0)
  if (warned.length > 0) {
    const count = warned.reduce((sum, scenario) => sum + scenario.warnings.length, 0)
    const lines = options.verbose
      ? warned.map((scenario) => warningBlock(scenario, formatOptions, style))
      : warningsByRule(result, style)
    blocks.push(
      `${heading(`Warnings (${count})`, style.yellow, style)}\n${lines.join(options.verbose ? '\n\n' : '\n')}`,
    )
  }
  const skipped = byOutcome('skipped')
  if (skipped.length > 0) {
    const lines = options.verbose
      ? skipped.map(
          (scenario) => `${style.yellow('-')} ${scenario.id} ${scenario.title}: ${scenario.skipReason ?? 'skipped'}`,
        )
      : skipsByReason(skipped, style)
    blocks.push(`${heading(`Skipped (${skipped.length})`, style.yellow, style)}\n${lines.join('\n')}`)
  }
  if (result.diagnostics.length > 0) {
    const lines = result.diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, formatOptions))
    blocks.push(
      `${heading(`Problems of the run (${result.diagnostics.length})`, style.red, style)}\n${lines.join('\n')}`,
    )
  }
  if (result.polling && result.polling.cappedSteps > 0) {
    blocks.push(
      style.yellow(
        `Polling: ${result.polling.cappedSteps} eventually step(s) stopped early; the run's ${Math.round(result.polling.capMs / 1000)} s polling budget was used up (--max-polling)`,
      ),
    )
  }
  if (result.busy) {
    const { answers, stayedBusy, waitedMs } = result.busy
    const notJudged =
      stayedBusy > 0
        ? `; ${stayedBusy} request(s) stayed busy and their steps were not judged`
        : '; every one was answered on a resend'
    blocks.push(
      style.yellow(
        `Busy: the server answered 429/503 ${answers} time(s), ${Math.round(waitedMs / 100) / 10} s spent waiting${notJudged}`,
      ),
    )
  }
  if (result.scenarios.length > 0 && !options.generated)
    blocks.push(`${heading('By spec section', style.bold, style)}\n${sectionTable(result, options.rules)}`)
  if (!options.generated && result.rules.length > 0) blocks.push(formatRuleCoverage(result.rules))
  for (const notice of result.notices ?? []) blocks.push(formatDiagnostic(notice, formatOptions))
  const banner = missingTokenBanner(result.notTested ?? options.missingTokens ?? [], style)
  if (banner) blocks.push(banner)
  blocks.push(formatClosingLine(result.summary, result.durationMs, result.failedOnSkip))
  return `\n${blocks.join('\n\n')}\n`
}

/** Shown before the first scenario and again before the closing line. */
export function missingTokenBanner(missing: readonly MissingToken[], style: Styler): string | undefined {
  if (missing.length === 0) return undefined
  return (
    style.yellow(style.bold(NOT_TESTED_HEADING)) +
    '\n' +
    notTestedLines(missing)
      .map((line) => `  ${line}`)
      .join('\n')
  )
}

function brokenRuleBlock(rule: BrokenRule, options: FormatOptions, style: Styler): string {
  const { verdict } = rule
  const lines = [
    `${style.red('✘')} ${style.bold(verdict.id)}${verdict.section ? ` (${verdict.section})` : ''}: broken in ${rule.scenarios.length} scenario${rule.scenarios.length === 1 ? '' : 's'} (${listScenarios(rule.scenarios)})`,
  ]
  if (verdict.quote) lines.push(`  ${style.dim(`"${truncateText(verdict.quote, 300)}"`)}`)
  if (rule.example) lines.push(indent(formatRuleExample(rule.example, { ...options, maxLines: EXAMPLE_MAX_LINES })))
  return lines.join('\n')
}

/** `! <rule id>: 3 warnings in 2 scenarios (first: …)` */
function warningsByRule(result: ReportedRunResult, style: Styler): string[] {
  const groups = new Map<string, { count: number; scenarios: Set<string>; first: string }>()
  for (const scenario of result.scenarios) {
    for (const warning of scenario.warnings) {
      const key = warning.rules.join(', ') || scenario.rules[0] || '(no rule)'
      const group = groups.get(key) ?? { count: 0, scenarios: new Set<string>(), first: warning.message }
      group.count++
      group.scenarios.add(scenario.id)
      groups.set(key, group)
    }
  }
  return [...groups.entries()].map(
    ([rule, group]) =>
      `${style.yellow('!')} ${rule}: ${group.count} in ${group.scenarios.size} scenario${group.scenarios.size === 1 ? '' : 's'}, e.g. ${truncateText(group.first.split('\n')[0] ?? '', 160)}`,
  )
}

/** `- 12 scenarios: needs --other-token (…)`: one line per reason; --verbose lists every scenario. */
function skipsByReason(skipped: readonly ReportedScenarioResult[], style: Styler): string[] {
  const groups = new Map<string, ReportedScenarioResult[]>()
  for (const scenario of skipped) {
    const reason = scenario.skipReason ?? 'skipped'
    groups.set(reason, [...(groups.get(reason) ?? []), scenario])
  }
  return [...groups.entries()].map(
    ([reason, scenarios]) =>
      `${style.yellow('-')} ${scenarios.length === 1 ? scenarios[0]!.id : `${scenarios.length} scenarios (${listScenarios(scenarios)})`}: ${reason}`,
  )
}

function failureBlock(scenario: ReportedScenarioResult, options: FormatOptions, style: Styler): string {
  const title = `${style.red('✘')} ${scenario.id} ${scenario.title} ${style.dim(`(${scenario.file}, ${formatDuration(scenario.durationMs)})`)}`
  return `${title}\n${indent(formatScenarioEvidence(scenario, options))}`
}

function warningBlock(scenario: ReportedScenarioResult, options: FormatOptions, style: Styler): string {
  const warnings = scenario.warnings.map((warning) =>
    formatAssertion(warning, { ...options, fallbackRules: scenario.rules }),
  )
  return `${style.yellow('!')} ${scenario.id} ${scenario.title}\n${indent(warnings.join('\n'))}`
}

function sectionTable(result: ReportedRunResult, rules: RuleIndex): string {
  const groups = groupBySection(result.scenarios, rules)
  const width = Math.max(...groups.map(({ section }) => section.length))
  return groups
    .map(({ section, scenarios }) => `  ${section.padEnd(width)}  ${formatCounts(countOutcomes(scenarios))}`)
    .join('\n')
}

function heading(text: string, colour: (text: string) => string, style: Styler): string {
  return colour(style.bold(text))
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n')
}
