import { withoutUserinfo } from '../shared/secrets.js'
import { ConformanceError, toDiagnostic, type Diagnostic } from '../model/diagnostic.js'
import { loadRules } from '../load/load-rules.js'
import { createMultiplexer } from '../report/multiplexer.js'
import { createFinalizer } from '../execute/finalize/finalize-run.js'
import { isFailingRun } from '../model/reported-result.js'
import { RUN_DEFAULTS } from '../api/defaults.js'
import { createReporters } from '../report/registry.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import type { RunPlanView, Screen } from '../model/reporter.js'
import { runFuzz, type FuzzProgress } from '../fuzz/run-fuzz.js'
import type { ConformanceTarget } from '../session/run-session.js'
import { startEmbeddedTarget, type EmbeddedTarget } from '../api/embedded-target.js'
import { EXIT } from '../shared/exit-codes.js'
import { listenForInterrupt } from './interrupt.js'
import { resolveRunOptions, type RunFlags } from './options/run-options.js'
import { prepareReportFolders } from '../api/report-folders.js'
import { processScreen } from '../api/screen.js'

export interface FuzzFlags extends Pick<
  RunFlags,
  | 'baseUrl'
  | 'token'
  | 'otherToken'
  | 'config'
  | 'reporter'
  | 'outputDir'
  | 'timeout'
  | 'readOnly'
  | 'ca'
  | 'insecure'
  | 'showPersonalData'
> {
  runs?: number
  time?: number
  seed?: number
}

/** `fitconform fuzz`: returns the exit code (0 no failure, 1 failure found, 2 usage, 3 unreachable, 130 interrupted). */
export async function fuzzCommand(flags: FuzzFlags, screen: Screen = processScreen()): Promise<number> {
  const printDiagnostic = (diagnostic: Diagnostic): void =>
    screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
  if (flags.runs !== undefined && flags.time !== undefined) {
    printDiagnostic({ code: 'E_USAGE', kind: 'load', message: 'give --runs or --time, not both' })
    return EXIT.usage
  }
  let options
  try {
    options = resolveRunOptions(flags)
  } catch (error) {
    printDiagnostic(toDiagnostic(error))
    return error instanceof ConformanceError ? EXIT.usage : EXIT.failed
  }
  const folderProblem = await prepareReportFolders(options.reporter ?? RUN_DEFAULTS.reporters, options.outputDir)
  if (folderProblem !== undefined) {
    printDiagnostic({ code: 'E_USAGE', kind: 'load', message: folderProblem })
    return EXIT.usage
  }
  const reporters = await createReporters(options.reporter ?? RUN_DEFAULTS.reporters, {
    outputDir: options.outputDir,
    screen,
    showPersonalData: options.showPersonalData,
  }).catch((error: Error) => error)
  if (reporters instanceof Error) {
    printDiagnostic({ code: 'E_USAGE', kind: 'load', message: `--reporter: ${reporters.message}` })
    return EXIT.usage
  }
  const reporter = createMultiplexer(reporters)
  const { rules } = await loadRules()
  const seed = flags.seed ?? Math.floor(Math.random() * 2 ** 31)
  const interrupt = listenForInterrupt(screen, 'the sequence in flight')
  let embedded: EmbeddedTarget | undefined
  try {
    let target: ConformanceTarget
    if (options.baseUrl) {
      target = { baseUrl: options.baseUrl, tokens: options.tokens, label: withoutUserinfo(options.baseUrl.toString()) }
    } else {
      embedded = await startEmbeddedTarget()
      target = embedded.target
      screen.err(`No --base-url given: fuzzing the embedded reference server at ${embedded.url}\n`)
    }
    if (!target.tokens.token) {
      printDiagnostic({
        code: 'E_USAGE',
        kind: 'load',
        message: 'fuzzing needs --token (or FITCONFORM_TOKEN): a normal user with all permissions',
      })
      return EXIT.usage
    }
    screen.err(
      `fuzz: seed ${seed}${options.readOnly ? ', read-only' : ''}; ${flags.time !== undefined ? `for ${Math.round(flags.time / 1000)}s` : `${flags.runs ?? 100} sequences`}\n`,
    )
    const view: RunPlanView = { target: target.label, strict: false, rules, scenarios: [], generated: true }
    await reporter.onRunStart?.(view)
    const outcome = await runFuzz({
      target,
      rules,
      seed,
      runs: flags.runs,
      timeMs: flags.time,
      readOnly: options.readOnly,
      outputDir: options.outputDir,
      ledgerDir: options.outputDir,
      timeoutMs: options.timeoutMs,
      insecure: options.insecure,
      ca: options.ca,
      configValues: options.values,
      interrupted: interrupt.signal,
      ...(options.baseUrl
        ? { replayFlags: `--base-url ${options.baseUrl.toString()} --token "$FITCONFORM_TOKEN"` }
        : {}),
      onProgress: progressLine(screen),
    })
    if (outcome.kind === 'unreachable') {
      printDiagnostic(outcome.diagnostic)
      return EXIT.unreachable
    }
    if (screen.isTTY) screen.err('\n')
    const { failure } = outcome
    const result = createFinalizer({ knownFailures: [], showPersonalData: options.showPersonalData, rules }).run(
      outcome.result,
    )
    for (const scenario of result.scenarios) await reporter.onScenarioEnd?.(scenario)
    await reporter.onRunEnd?.(result, {
      ...view,
      scenarios: result.scenarios.map(({ id, title, file, rules: r, tags }) => ({ id, title, file, rules: r, tags })),
    })
    screen.err(`${fuzzSummaryLine({ seed, runs: outcome.runs, failure })}\n`)
    if (failure) {
      if (failure.stoppedAfter)
        screen.err(`  the server stopped answering; last request it met: ${failure.stoppedAfter}\n`)
      screen.err(
        `  reproduction: ${failure.file}${failure.reproduced ? '' : ' (did not fail again when run from the file)'}\n  replay:       ${failure.replay}\n  fuzz again:   ${failure.refuzz}\n`,
      )
    }
    if (result.cleanup?.openLedger)
      screen.err(
        `NOT everything was undone: run \`fitconform cleanup --output-dir ${options.outputDir}\` (ledger ${result.cleanup.openLedger})\n`,
      )
    // Interrupted wins over a failure found: the shell's code for SIGINT, given only after the cleanup (as `run` does).
    if (interrupt.signal.aborted) return EXIT.interrupted
    return failure || isFailingRun(result) || reporter.errors().length > 0 ? EXIT.failed : EXIT.ok
  } catch (error) {
    printDiagnostic(toDiagnostic(error))
    return EXIT.failed
  } finally {
    interrupt.dispose()
    await embedded?.close()
  }
}

/**
 * The closing line: `fuzz: 100 sequences, seed 1: no failure` or `fuzz: FAILED <RULE-ID> after 19
 * sequences (seed 1), shrunk to 2 steps in 3 more runs`.
 */
export function fuzzSummaryLine(outcome: {
  seed: number
  runs: number
  failure?: { rule: string; steps: number; foundAt: number }
}): string {
  const { seed, runs, failure } = outcome
  if (!failure) return `fuzz: ${plural(runs, 'sequence')}, seed ${seed}: no failure`
  return `fuzz: FAILED ${failure.rule} after ${plural(failure.foundAt, 'sequence')} (seed ${seed}), shrunk to ${plural(failure.steps, 'step')} in ${plural(runs - failure.foundAt, 'more run')}`
}

/** `fuzz: 40 sequences, no failure yet, 20s left`; the failures counted while shrinking are candidates, not findings. */
export function describeFuzzProgress(progress: FuzzProgress): string {
  const found =
    progress.failures === 0
      ? 'no failure yet'
      : progress.shrinking
        ? 'a failure found, shrinking it'
        : 'a failure found'
  const left = progress.msLeft !== undefined ? `, ${Math.ceil(progress.msLeft / 1000)}s left` : ''
  return `fuzz: ${plural(progress.runs, progress.shrinking ? 'run' : 'sequence')}, ${found}${left}`
}

/** One line, rewritten in place on a terminal at most every 250 ms; elsewhere every ten seconds, the first after ten seconds. */
function progressLine(screen: Screen): (progress: FuzzProgress) => void {
  let last = screen.isTTY ? 0 : Date.now()
  return (progress) => {
    const now = Date.now()
    if (now - last < (screen.isTTY ? 250 : 10_000)) return
    last = now
    const text = describeFuzzProgress(progress)
    screen.err(screen.isTTY ? `\r${text}\x1b[K` : `${text}\n`)
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
