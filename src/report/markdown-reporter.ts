import { appendFile } from 'node:fs/promises'
import type { RunResult, ScenarioResult } from '../model/result.js'
import { formatAssertion, indexRules, type RuleIndex } from './format-diagnostic.js'
import { formatScenarioEvidence } from './evidence.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import { maskPersonalData } from './personal-data.js'
import type { Reporter, RunPlanView } from './reporter.js'
import { describeKnownFailure, knownFailureOf, type ReportedRunSummary } from './reported-result.js'
import { describeOutcome, formatClosingLine, groupBySection, outcomeOf, plural, type Outcome } from './run-summary.js'
import { truncateText, formatDuration } from './values.js'

const MARKDOWN_REPORT_FILE = 'summary.md'
/** GitHub shows at most 1 MiB of step summary; one scenario's evidence never takes more than this. */
const EVIDENCE_MAX_CHARS = 20_000

export interface MarkdownReporterOptions extends FileReporterOptions {
  /** `$GITHUB_STEP_SUMMARY`: the same text is appended there. */
  readonly stepSummaryFile?: string | undefined
}

/** `summary.md` for pull requests and the GitHub job summary. */
export function createMarkdownReporter(options: MarkdownReporterOptions): Reporter & { readonly name: 'markdown' } {
  return {
    name: 'markdown',
    printsToStdout: () => false,
    async onRunEnd(result: RunResult, plan: RunPlanView) {
      const shown = options.showPersonalData ? result : maskPersonalData(result)
      const text = renderMarkdown(shown, indexRules(plan.rules))
      await writeReportFile(options, MARKDOWN_REPORT_FILE, text)
      if (options.stepSummaryFile) await appendFile(options.stepSummaryFile, `${text}\n`, 'utf8')
    },
  }
}

const ICONS: Readonly<Record<Outcome, string>> = {
  passed: '✅',
  failed: '❌',
  skipped: '⏭️',
  'expected-failure': '☑️',
  'unexpectedly-passed': '❗',
}

/**
 * A heading with the closing line, a short table per spec section, then each failure (and each
 * known failure that now passes) with its evidence collapsed in <details>, warnings and skips.
 */
export function renderMarkdown(result: RunResult, rules: RuleIndex): string {
  const summary = result.summary as ReportedRunSummary
  const lines = [
    `## fitconform: ${formatClosingLine(summary, result.durationMs)}`,
    '',
    `Target: ${inlineCode(result.target)}${result.strict ? ' (strict)' : ''} · started ${result.startedAt}`,
  ]
  for (const { section, scenarios } of groupBySection(result.scenarios, rules)) {
    lines.push('', `### ${escapeMarkdown(section)}`, '', '| | Scenario | Result | Time |', '|---|---|---|---|')
    for (const scenario of scenarios) {
      const cells = [ICONS[outcomeOf(scenario)], `${inlineCode(scenario.id)} ${escapeMarkdown(scenario.title)}`, escapeMarkdown(describeOutcome(scenario)), formatDuration(scenario.durationMs)]
      lines.push(`| ${cells.join(' | ')} |`)
    }
  }
  const failing = result.scenarios.filter((scenario) => ['failed', 'unexpectedly-passed', 'expected-failure'].includes(outcomeOf(scenario)))
  if (failing.length > 0) {
    lines.push('', '### Failures', '')
    for (const scenario of failing) lines.push(failureDetails(scenario, rules))
  }
  const warned = result.scenarios.filter((scenario) => scenario.warnings.length > 0)
  if (warned.length > 0) {
    lines.push('', `### Warnings (${summary.warnings})`, '')
    for (const scenario of warned) {
      const text = scenario.warnings.map((warning) => formatAssertion(warning, { colors: false, rules, fallbackRules: scenario.rules })).join('\n')
      lines.push(details(`⚠️ ${inlineCode(scenario.id)} ${escapeHtml(scenario.title)}: ${plural(scenario.warnings.length, 'warning')}`, text))
    }
  }
  const skipped = result.scenarios.filter((scenario) => scenario.status === 'skipped')
  if (skipped.length > 0) {
    lines.push('', '### Skipped', '')
    for (const scenario of skipped) lines.push(`- ${inlineCode(scenario.id)} ${escapeMarkdown(scenario.title)}: ${escapeMarkdown(scenario.skipReason ?? 'skipped')}`)
  }
  if (result.diagnostics.length > 0) {
    lines.push('', '### Problems of the run', '')
    for (const diagnostic of result.diagnostics) lines.push(`- ${inlineCode(diagnostic.code)} ${escapeMarkdown(diagnostic.message)}`)
  }
  return `${lines.join('\n')}\n`
}

function failureDetails(scenario: ScenarioResult, rules: RuleIndex): string {
  const outcome = outcomeOf(scenario)
  const known = knownFailureOf(scenario)
  const label = `${ICONS[outcome]} ${inlineCode(scenario.id)} ${escapeHtml(scenario.title)}`
  if (outcome === 'unexpectedly-passed') {
    return details(`${label}: unexpectedly passed`, `listed as a known failure (${describeKnownFailure(known)}); remove it from the list`)
  }
  const evidence = truncateText(formatScenarioEvidence(scenario, { colors: false, rules }), EVIDENCE_MAX_CHARS)
  const note = outcome === 'expected-failure' ? `: known failure, ${escapeHtml(describeKnownFailure(known))}` : ''
  return details(`${label}${note}`, `${scenario.file}\n\n${evidence}`)
}

/** A collapsed block; `text` goes in a code fence longer than any backtick run inside it. */
function details(summaryHtml: string, text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return `<details><summary>${summaryHtml}</summary>\n\n${fence}text\n${text}\n${fence}\n\n</details>\n`
}

/** Text in table cells, headings and list items: markup characters escaped, one line. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~!])/g, '\\$1')
    .replace(/\r?\n/g, ' ')
}

/** Text inside HTML (<summary>), where GitHub does not read Markdown. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;').replace(/\r?\n/g, ' ')
}

/** Ids and codes: <code> rather than backticks, so any character is safe (also in <summary>). */
function inlineCode(text: string): string {
  return `<code>${escapeHtml(text)}</code>`
}
