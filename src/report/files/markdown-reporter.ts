import { appendFile } from 'node:fs/promises'
import type { ReportedRunResult, ReportedScenarioResult } from '../../model/reported-result.js'
import { formatAssertion, indexRules, type RuleIndex } from '../text/format-diagnostic.js'
import { describeFailedStep, failedAssertions, formatRuleExample, formatScenarioEvidence } from '../text/evidence.js'
import { brokenRules, listScenarios, unjudgedSteps, type BrokenRule } from '../text/failures-by-rule.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import type { Reporter, RunPlanView } from '../../model/reporter.js'
import { describeKnownFailure, describeStaleRuleEntry } from '../text/known-failure-text.js'
import { staleRuleEntries } from '../../model/reported-result.js'
import { NOT_TESTED_HEADING, notTestedLines } from '../text/not-tested-text.js'
import { formatRuleCoverage } from '../text/rule-coverage-text.js'
import {
  describeOutcome,
  formatClosingLine,
  hasSkippedCells,
  groupBySection,
  outcomeOf,
  plural,
  type Outcome,
} from '../text/run-summary.js'
import { truncateText } from '../../shared/format-value.js'
import { formatDuration } from '../text/values.js'
import { REPORT_FILE_NAMES } from './report-file-names.js'

const MARKDOWN_REPORT_FILE = REPORT_FILE_NAMES['markdown']!
/** GitHub shows at most 1 MiB of step summary; one scenario's evidence never takes more than this. */
const EVIDENCE_MAX_CHARS = 20_000

export interface MarkdownReporterOptions extends FileReporterOptions {
  /** `$GITHUB_STEP_SUMMARY`: the same text is appended there. */
  readonly stepSummaryFile?: string | undefined
}

/** `summary.md` for pull requests and the GitHub job summary. */
export function createMarkdownReporter(options: MarkdownReporterOptions): Reporter & { readonly name: 'markdown' } {
  let written: string | undefined
  return {
    name: 'markdown',
    printsToStdout: () => false,
    outputFiles: () => (written ? [written] : []),
    async onRunEnd(result: ReportedRunResult, plan: RunPlanView) {
      const text = renderMarkdown(result, indexRules(plan.rules), { ruleCoverage: !plan.generated })
      written = await writeReportFile(options, MARKDOWN_REPORT_FILE, text)
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

/** A pull-request comment holds 65,536 characters; the summary stays under that whatever the server does. */
export const MARKDOWN_MAX_CHARS = 64_000
/** Room the failures by rule may take with examples; past it, the remaining rules get a line each. */
const RULE_EXAMPLES_MAX_CHARS = 32_000
const EXAMPLE_MAX_LINES = 36

/**
 * A heading with the closing line, then failures by rule (each broken rule once, with one example
 * collapsed in <details>), a short table per spec section, each failing scenario with its evidence,
 * warnings and skips. Parts that would pass the size budget are left out, saying so.
 */
export function renderMarkdown(
  result: ReportedRunResult,
  rules: RuleIndex,
  options: { ruleCoverage?: boolean } = {},
): string {
  const summary = result.summary
  const head = [
    `## fitconform: ${formatClosingLine(summary, result.durationMs, result.failedOnSkip)}`,
    '',
    `Target: ${inlineCode(result.target)}${result.strict ? ' (strict)' : ''} · started ${result.startedAt}`,
    ...(options.ruleCoverage !== false && result.rules.length > 0
      ? ['', escapeMarkdown(formatRuleCoverage(result.rules))]
      : []),
  ].join('\n')
  const notTested = notTestedBlock(result)
  const parts: string[] = notTested ? [head, notTested] : [head]
  for (const notice of result.notices ?? [])
    parts.push(`\n> ⚠️ ${escapeMarkdown(notice.message)}${notice.hint ? ` (${escapeMarkdown(notice.hint)})` : ''}`)
  const broken = brokenRules(result)
  if (broken.length > 0) parts.push(failuresByRule(broken, rules))
  const unjudged = unjudgedSteps(result)
  if (unjudged.length > 0) {
    const lines = unjudged.map(
      ({ scenario, step, position, cleanup }) =>
        `- ${inlineCode(scenario.id)} ${escapeMarkdown(describeFailedStep({ step, position, cleanup }))}: ${escapeMarkdown(truncateText(step.error?.message ?? failedAssertions(step)[0]?.message ?? '', 300))}`,
    )
    parts.push(['', `### Failed outside any rule (${unjudged.length})`, '', ...lines].join('\n'))
  }
  const sections: string[] = []
  for (const { section, scenarios } of groupBySection(result.scenarios, rules)) {
    sections.push('', `### ${escapeMarkdown(section)}`, '', '| | Scenario | Result | Time |', '|---|---|---|---|')
    for (const scenario of scenarios) {
      const cells = [
        hasSkippedCells(scenario) && outcomeOf(scenario) === 'passed' ? ICONS.skipped : ICONS[outcomeOf(scenario)],
        `${inlineCode(scenario.id)} ${escapeMarkdown(scenario.title)}`,
        escapeMarkdown(describeOutcome(scenario)),
        formatDuration(scenario.durationMs),
      ]
      sections.push(`| ${cells.join(' | ')} |`)
    }
  }
  parts.push(sections.join('\n'))
  const staleRules = staleRuleEntries(result)
  if (staleRules.length > 0)
    parts.push(
      [
        '',
        `### ❗ Known failures that now pass (${staleRules.length})`,
        '',
        ...staleRules.map((report) => `- ${escapeMarkdown(describeStaleRuleEntry(report))}`),
      ].join('\n'),
    )
  const failing = result.scenarios.filter((scenario) =>
    ['failed', 'unexpectedly-passed', 'expected-failure'].includes(outcomeOf(scenario)),
  )
  if (failing.length > 0)
    parts.push(
      ['', '### Failures by scenario', '', ...failing.map((scenario) => failureDetails(scenario, rules))].join('\n'),
    )
  const warned = result.scenarios.filter((scenario) => scenario.warnings.length > 0)
  if (warned.length > 0) {
    const lines = ['', `### Warnings (${summary.warnings})`, '']
    for (const scenario of warned) {
      const text = scenario.warnings
        .map((warning) => formatAssertion(warning, { colors: false, rules, fallbackRules: scenario.rules }))
        .join('\n')
      lines.push(
        details(
          `⚠️ ${inlineCode(scenario.id)} ${escapeHtml(scenario.title)}: ${plural(scenario.warnings.length, 'warning')}`,
          truncateText(text, EVIDENCE_MAX_CHARS),
        ),
      )
    }
    parts.push(lines.join('\n'))
  }
  const skipped = result.scenarios.filter((scenario) => scenario.status === 'skipped')
  if (skipped.length > 0) {
    parts.push(
      [
        '',
        '### Skipped',
        '',
        ...skipped.map(
          (scenario) =>
            `- ${inlineCode(scenario.id)} ${escapeMarkdown(scenario.title)}: ${escapeMarkdown(scenario.skipReason ?? 'skipped')}`,
        ),
      ].join('\n'),
    )
  }
  if (result.diagnostics.length > 0) {
    parts.push(
      [
        '',
        '### Problems of the run',
        '',
        ...result.diagnostics.map(
          (diagnostic) => `- ${inlineCode(diagnostic.code)} ${escapeMarkdown(truncateText(diagnostic.message, 500))}`,
        ),
      ].join('\n'),
    )
  }
  // The budget may cut the middle; the block at the end is added whatever it left out.
  return `${withinBudget(parts)}${notTested ? `\n${notTested}` : ''}\n`
}

/** Shown right under the heading and again at the end: which token flags were not given and what that left untested. */
function notTestedBlock(result: ReportedRunResult): string | undefined {
  const lines = notTestedLines(result.notTested ?? [])
  if (lines.length === 0) return undefined
  return [
    '',
    `### ⏭️ ${escapeMarkdown(NOT_TESTED_HEADING)}`,
    '',
    ...lines.map((line) => `- ${escapeMarkdown(line)}`),
  ].join('\n')
}

/** Whole parts, in order, while they fit; then one line saying what was left out. */
function withinBudget(parts: readonly string[]): string {
  const note =
    '\n\n_The rest of this summary was left out to fit a pull-request comment: results.json and report.html hold everything._'
  let text = ''
  for (const [index, part] of parts.entries()) {
    const next = index === 0 ? part : `${text}\n${part}`
    if (next.length + note.length > MARKDOWN_MAX_CHARS)
      return (text || truncateText(part, MARKDOWN_MAX_CHARS - note.length)) + note
    text = next
  }
  return text
}

function failuresByRule(broken: readonly BrokenRule[], rules: RuleIndex): string {
  const lines = ['', `### Failures by rule (${broken.length})`, '']
  let used = 0
  for (const rule of broken) {
    const { verdict } = rule
    const label = `❌ <code>${escapeHtml(verdict.id)}</code>${verdict.section ? ` (${escapeHtml(verdict.section)})` : ''}: broken in ${plural(rule.scenarios.length, 'scenario')} (${escapeHtml(listScenarios(rule.scenarios))})`
    const quote = verdict.quote ? `> ${escapeMarkdown(truncateText(verdict.quote, 400))}\n\n` : ''
    if (!rule.example || used > RULE_EXAMPLES_MAX_CHARS) {
      lines.push(`- ${label}`)
      continue
    }
    const example = formatRuleExample(rule.example, { colors: false, rules, maxLines: EXAMPLE_MAX_LINES })
    const block = `${quote}${details(`${label}`, example)}`
    used += block.length
    lines.push(block)
  }
  return lines.join('\n')
}

function failureDetails(scenario: ReportedScenarioResult, rules: RuleIndex): string {
  const outcome = outcomeOf(scenario)
  const known = scenario.knownFailure
  const label = `${ICONS[outcome]} ${inlineCode(scenario.id)} ${escapeHtml(scenario.title)}`
  if (outcome === 'unexpectedly-passed') {
    return details(
      `${label}: unexpectedly passed`,
      `listed as a known failure (${describeKnownFailure(known)}); remove it from the list`,
    )
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
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;')
    .replace(/\r?\n/g, ' ')
}

/** Ids and codes: <code> rather than backticks, so any character is safe (also in <summary>). */
function inlineCode(text: string): string {
  return `<code>${escapeHtml(text)}</code>`
}
