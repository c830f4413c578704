import type { RunResult, ScenarioResult } from '../model/result.js'
import { formatAssertion, formatDiagnostic, type FormatOptions, type RuleIndex } from './format-diagnostic.js'
import { formatScenarioEvidence } from './evidence.js'
import { describeKnownFailure, knownFailureOf, type ReportedRunSummary } from './reported-result.js'
import { countOutcomes, formatClosingLine, formatCounts, groupBySection, outcomeOf } from './run-summary.js'
import { createStyler, type Styler } from './text-style.js'
import { formatDuration } from './values.js'

export interface ConsoleSummaryOptions {
  readonly colors: boolean
  readonly rules: RuleIndex
}

/**
 * The end-of-run text, in the order a reader needs it: failures with their evidence (by spec
 * section), known failures that now pass, expected failures, warnings, skips with reasons, problems
 * of the run, counts per section, and the plain closing line last.
 */
export function formatConsoleSummary(result: RunResult, options: ConsoleSummaryOptions): string {
  const style = createStyler(options.colors)
  const formatOptions: FormatOptions = { colors: options.colors, rules: options.rules }
  const byOutcome = (outcome: ReturnType<typeof outcomeOf>): ScenarioResult[] =>
    result.scenarios.filter((scenario) => outcomeOf(scenario) === outcome)
  const blocks: string[] = []

  const failed = byOutcome('failed')
  if (failed.length > 0) {
    const body = groupBySection(failed, options.rules).map(({ section, scenarios }) =>
      `${style.bold(section)}\n${scenarios.map((scenario) => failureBlock(scenario, formatOptions, style)).join('\n\n')}`,
    )
    blocks.push(`${heading(`Failures (${failed.length})`, style.red, style)}\n${body.join('\n\n')}`)
  }
  const unexpected = byOutcome('unexpectedly-passed')
  if (unexpected.length > 0) {
    const lines = unexpected.map(
      (scenario) => `${style.red('✘')} ${scenario.id} ${scenario.title}: passed, but is listed as a known failure (${describeKnownFailure(knownFailureOf(scenario))}); remove it from the list`,
    )
    blocks.push(`${heading(`Unexpectedly passed (${unexpected.length})`, style.red, style)}\n${lines.join('\n')}`)
  }
  const expected = byOutcome('expected-failure')
  if (expected.length > 0) {
    const lines = expected.map((scenario) => `${style.yellow('✘')} ${scenario.id} ${scenario.title}: ${describeKnownFailure(knownFailureOf(scenario))}`)
    blocks.push(`${heading(`Known failures, not failing the run (${expected.length})`, style.yellow, style)}\n${lines.join('\n')}`)
  }
  const warned = result.scenarios.filter((scenario) => scenario.warnings.length > 0)
  if (warned.length > 0) {
    const count = warned.reduce((sum, scenario) => sum + scenario.warnings.length, 0)
    const lines = warned.map((scenario) => warningBlock(scenario, formatOptions, style))
    blocks.push(`${heading(`Warnings (${count})`, style.yellow, style)}\n${lines.join('\n\n')}`)
  }
  const skipped = byOutcome('skipped')
  if (skipped.length > 0) {
    const lines = skipped.map((scenario) => `${style.yellow('-')} ${scenario.id} ${scenario.title}: ${scenario.skipReason ?? 'skipped'}`)
    blocks.push(`${heading(`Skipped (${skipped.length})`, style.yellow, style)}\n${lines.join('\n')}`)
  }
  if (result.diagnostics.length > 0) {
    const lines = result.diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, formatOptions))
    blocks.push(`${heading(`Problems of the run (${result.diagnostics.length})`, style.red, style)}\n${lines.join('\n')}`)
  }
  if (result.scenarios.length > 0) blocks.push(`${heading('By spec section', style.bold, style)}\n${sectionTable(result, options.rules)}`)
  blocks.push(formatClosingLine(result.summary as ReportedRunSummary, result.durationMs))
  return `\n${blocks.join('\n\n')}\n`
}

function failureBlock(scenario: ScenarioResult, options: FormatOptions, style: Styler): string {
  const title = `${style.red('✘')} ${scenario.id} ${scenario.title} ${style.dim(`(${scenario.file}, ${formatDuration(scenario.durationMs)})`)}`
  return `${title}\n${indent(formatScenarioEvidence(scenario, options))}`
}

function warningBlock(scenario: ScenarioResult, options: FormatOptions, style: Styler): string {
  const warnings = scenario.warnings.map((warning) => formatAssertion(warning, { ...options, fallbackRules: scenario.rules }))
  return `${style.yellow('!')} ${scenario.id} ${scenario.title}\n${indent(warnings.join('\n'))}`
}

function sectionTable(result: RunResult, rules: RuleIndex): string {
  const groups = groupBySection(result.scenarios, rules)
  const width = Math.max(...groups.map(({ section }) => section.length))
  return groups.map(({ section, scenarios }) => `  ${section.padEnd(width)}  ${formatCounts(countOutcomes(scenarios))}`).join('\n')
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
