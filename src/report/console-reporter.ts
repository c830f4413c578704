import type { Diagnostic } from '../model/diagnostic.js'
import { isFailingScenario, type ReportedRunResult, type ReportedScenarioResult } from '../model/reported-result.js'
import { formatDiagnostic, indexRules, type RuleIndex } from './text/format-diagnostic.js'
import type { Reporter, RunPlanView, Screen } from '../model/reporter.js'
import { formatConsoleSummary, missingTokenBanner } from './console-summary.js'
import { describeOutcome, markOf, outcomeOf } from './text/run-summary.js'
import { createStyler, stripAnsi, type Styler } from './text/text-style.js'
import { formatDuration } from './text/values.js'

export interface ConsoleReporterOptions {
  readonly screen: Screen
  /** `full`: a line per scenario (or a live progress line on a TTY), then the summary; `summary`: the summary only. */
  readonly mode?: 'full' | 'summary'
  /** Every failure with its evidence, instead of one evidence block per broken rule; without a TTY, a line for every scenario. */
  readonly verbose?: boolean
  /** Milliseconds now; tests pass a fixed clock. */
  readonly clock?: () => number
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
  const now = options.clock ?? (() => Date.now())
  let total = 0
  let done = 0
  let failing = 0
  let startedAt = 0
  const running = new Set<string>()
  let rules: RuleIndex = new Map()
  let progressShown = false
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let missingTokens: RunPlanView['missingTokens'] = []

  const clearProgress = (): void => {
    if (!progressShown) return
    screen.out(`\r${' '.repeat(Math.max(screen.width - 1, 0))}\r`)
    progressShown = false
  }
  const elapsed = (): string => formatDuration(now() - startedAt)
  /** What the run is doing now, for the heartbeat and the live line. */
  const activity = (): string => {
    if (done >= total) return 'scenarios done; cleaning up: deleting what the run created and sweeping for its marker'
    const ids = [...running]
    return ids.length === 0
      ? 'starting the next scenario'
      : `running ${ids.slice(0, 2).join(', ')}${ids.length > 2 ? ` and ${ids.length - 2} more` : ''}`
  }
  const liveLine = (): void => {
    const failures = failing > 0 ? style.red(`${failing} failing`) : '0 failing'
    const estimate =
      done > 0 && done < total ? `, about ${formatDuration(((now() - startedAt) / done) * (total - done))} left` : ''
    screen.out(
      `\r${fit(`${done}/${total} scenarios, ${failures}, ${elapsed()}${estimate}  ${activity()}`, screen.width)}`,
    )
    progressShown = true
  }

  return {
    name: 'console',
    printsToStdout: () => true,
    onRunStart(plan: RunPlanView) {
      total = plan.scenarios.length
      startedAt = now()
      rules = indexRules(plan.rules)
      missingTokens = plan.missingTokens ?? []
      const banner = missingTokenBanner(missingTokens, style)
      if (banner) screen.out(`${banner}\n`)
      for (const notice of plan.notices ?? []) screen.out(`${formatDiagnostic(notice, { colors: screen.colors })}\n`)
      if (options.mode === 'summary') return
      const mode = plan.strict ? ', strict' : ''
      // Fuzz generates its scenarios as it goes and prints its own progress: no count, no heartbeat.
      if (plan.generated) {
        screen.out(`${style.bold('fitconform fuzz')} against ${plan.target}\n`)
        return
      }
      screen.out(`${style.bold('fitconform')} ${plural(total)} against ${plan.target}${mode}\n`)
      // A CI log with no line for minutes looks hung: without a TTY, say what runs at least every 5 s.
      const tick = (): void =>
        isPlain ? screen.out(`… ${done}/${total} scenarios done, ${elapsed()} elapsed; ${activity()}\n`) : liveLine()
      heartbeat = setInterval(tick, isPlain ? HEARTBEAT_MS : LIVE_REFRESH_MS)
      heartbeat.unref()
    },
    onScenarioStart(scenario) {
      running.add(scenario.id)
    },
    onScenarioEnd(result: ReportedScenarioResult) {
      running.delete(result.id)
      done++
      if (isFailingScenario(result)) failing++
      // Passes go by silently unless --verbose; failures and skips are worth a line as they happen.
      if (isPlain && (options.verbose || outcomeOf(result) !== 'passed' || result.warnings.length > 0))
        screen.out(`${scenarioLine(result, style)}\n`)
      if (isPlain && done === total && total > 0) screen.out(`… ${activity()} (${elapsed()} elapsed)\n`)
      if (isLive) liveLine()
    },
    onDiagnostic(diagnostic: Diagnostic) {
      clearProgress()
      screen.err(`${formatDiagnostic(diagnostic, { colors: screen.colors, rules })}\n`)
    },
    onRunEnd(result: ReportedRunResult, plan: RunPlanView) {
      if (heartbeat) clearInterval(heartbeat)
      clearProgress()
      screen.out(
        formatConsoleSummary(result, {
          colors: screen.colors,
          rules: indexRules(plan.rules),
          verbose: options.verbose ?? false,
          missingTokens,
          generated: plan.generated ?? false,
        }),
      )
    },
  }
}

const HEARTBEAT_MS = 5_000
const LIVE_REFRESH_MS = 1_000

/** `✓ feed-page-size The feed honours pageSize (120ms)` */
function scenarioLine(result: ReportedScenarioResult, style: Styler): string {
  const outcome = outcomeOf(result)
  const mark = markOf(result)
  const coloured =
    outcome === 'passed'
      ? style.green(mark)
      : outcome === 'skipped'
        ? style.yellow(mark)
        : outcome === 'expected-failure'
          ? style.yellow(mark)
          : style.red(mark)
  const note =
    outcome === 'passed' && result.warnings.length === 0 ? '' : ` ${style.dim(`[${describeOutcome(result)}]`)}`
  const reason = result.skipReason && result.status === 'skipped' ? `: ${result.skipReason}` : ''
  return `${coloured} ${result.id} ${result.title} ${style.dim(`(${formatDuration(result.durationMs)})`)}${note}${reason}${pollingNote(result, style)}`
}

/** A pass that needed `eventually` is not a plain pass: the server's feed lagged a write. */
function pollingNote(result: ReportedScenarioResult, style: Styler): string {
  const polled = result.steps.filter((step) => step.status === 'passed' && step.attempts > 1)
  if (polled.length === 0) return ''
  return (
    ' ' +
    style.dim(`(passed after polling: ${polled.map((step) => `"${step.name}" ${step.attempts} attempts`).join(', ')})`)
  )
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
