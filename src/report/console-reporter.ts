import type { Diagnostic } from '../model/diagnostic.js'
import { isFailingScenario, type ReportedRunResult, type ReportedScenarioResult } from '../model/reported-result.js'
import { formatDiagnostic, indexRules, type RuleIndex } from './format-diagnostic.js'
import type { Reporter, RunPlanView, Screen } from './reporter.js'
import { formatConsoleSummary, missingTokenBanner } from './console-summary.js'
import { describeOutcome, markOf, outcomeOf } from './run-summary.js'
import { createStyler, stripAnsi, type Styler } from './text-style.js'
import { formatDuration } from './values.js'

export interface ConsoleReporterOptions {
  readonly screen: Screen
  /** `full`: a line per scenario (or a live progress line on a TTY), then the summary; `summary`: the summary only. */
  readonly mode?: 'full' | 'summary'
  /** Every failure with its evidence, instead of one evidence block per broken rule. */
  readonly verbose?: boolean
}

/**
 * Progress while running, then failures with evidence, warnings, skips, counts by spec section and
 * the closing line `12 passed, 1 failed, 2 skipped, 3 warnings (3.4s)`.
 */
export function createConsoleReporter(options: ConsoleReporterOptions): Reporter & { readonly name: 'console' } {
  const { screen } = options
  const style = createStyler(screen.colors)
  const isLive = screen.isTTY && options.mode !== 'summary'
  const isPlain = !screen.isTTY && options.mode !== 'summary'
  let total = 0
  let done = 0
  let failing = 0
  let rules: RuleIndex = new Map()
  let progressShown = false
  let missingTokens: RunPlanView['missingTokens'] = []

  const clearProgress = (): void => {
    if (!progressShown) return
    screen.out(`\r${' '.repeat(Math.max(screen.width - 1, 0))}\r`)
    progressShown = false
  }

  return {
    name: 'console',
    printsToStdout: () => true,
    onRunStart(plan: RunPlanView) {
      total = plan.scenarios.length
      rules = indexRules(plan.rules)
      missingTokens = plan.missingTokens ?? []
      const banner = missingTokenBanner(missingTokens, style)
      if (banner) screen.out(`${banner}\n`)
      if (options.mode === 'summary') return
      const mode = plan.strict ? ', strict' : ''
      screen.out(`${style.bold('fitconform')} ${plural(total)} against ${plan.target}${mode}\n`)
    },
    onScenarioEnd(result: ReportedScenarioResult) {
      done++
      if (isFailingScenario(result)) failing++
      if (isPlain) screen.out(`${scenarioLine(result, style)}\n`)
      if (isLive) {
        const failures = failing > 0 ? style.red(`${failing} failing`) : '0 failing'
        const line = `${done}/${total} scenarios, ${failures}  ${result.id}`
        screen.out(`\r${fit(line, screen.width)}`)
        progressShown = true
      }
    },
    onDiagnostic(diagnostic: Diagnostic) {
      clearProgress()
      screen.err(`${formatDiagnostic(diagnostic, { colors: screen.colors, rules })}\n`)
    },
    onRunEnd(result: ReportedRunResult, plan: RunPlanView) {
      clearProgress()
      screen.out(formatConsoleSummary(result, { colors: screen.colors, rules: indexRules(plan.rules), verbose: options.verbose ?? false, missingTokens }))
    },
  }
}

/** `✓ feed-page-size The feed honours pageSize (120ms)` */
function scenarioLine(result: ReportedScenarioResult, style: Styler): string {
  const outcome = outcomeOf(result)
  const mark = markOf(result)
  const coloured =
    outcome === 'passed' ? style.green(mark) : outcome === 'skipped' ? style.yellow(mark) : outcome === 'expected-failure' ? style.yellow(mark) : style.red(mark)
  const note = outcome === 'passed' && result.warnings.length === 0 ? '' : ` ${style.dim(`[${describeOutcome(result)}]`)}`
  const reason = result.skipReason && result.status === 'skipped' ? `: ${result.skipReason}` : ''
  return `${coloured} ${result.id} ${result.title} ${style.dim(`(${formatDuration(result.durationMs)})`)}${note}${reason}${pollingNote(result, style)}`
}

/** A pass that needed `eventually` is not a plain pass: the server's feed lagged a write. */
function pollingNote(result: ReportedScenarioResult, style: Styler): string {
  const polled = result.steps.filter((step) => step.status === 'passed' && step.attempts > 1)
  if (polled.length === 0) return ''
  return ' ' + style.dim(`(passed after polling: ${polled.map((step) => `"${step.name}" ${step.attempts} attempts`).join(', ')})`)
}

function plural(count: number): string {
  return count === 1 ? '1 scenario' : `${count} scenarios`
}

/** Keeps the live line on one terminal row, so `\r` can rewrite it. */
function fit(line: string, width: number): string {
  const room = Math.max(width - 1, 20)
  const visible = stripAnsi(line).length
  return visible > room ? stripAnsi(line).slice(0, room) : line + ' '.repeat(room - visible)
}
