import { join, relative } from 'node:path'
import { surveysByDefault } from '../spec/survey/survey-default.js'
import { ConformanceError, toDiagnostic, type Diagnostic } from '../model/diagnostic.js'
import type { ReportedRunResult } from '../model/reported-result.js'
import type { CleanupSummary } from '../model/result.js'
import type { TokenRole } from '../model/scenario.js'
import { loadSuites } from '../load/load-suites.js'
import { packageRoot } from '../shared/package-root.js'
import { withoutUserinfo } from '../shared/secrets.js'
import { EXIT } from '../shared/exit-codes.js'
import { parseGrep, type GrepFilter } from '../plan/grep-filter.js'
import type { Shard } from '../plan/plan-run.js'
import { loadKnownFailuresFor, type KnownFailure } from '../known-failures/known-failures.js'
import { createMultiplexer, type Multiplexer } from '../report/multiplexer.js'
import { createReporters } from '../report/registry.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import { removeReportFiles } from '../report/files/report-files.js'
import type { Reporter, Screen } from '../model/reporter.js'
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.js'
import { exitOfRun } from './exit-code.js'
import { processScreen } from './screen.js'
import { isWriteFailure, prepareReportFolders } from './report-folders.js'
import { RUN_DEFAULTS } from './defaults.js'
import { runConformance } from '../execute/run-conformance.js'
import type { ConformanceTarget } from '../session/run-session.js'
import { missingMainToken } from '../execute/require-token.js'

export interface RunOptions {
  /** The server under test (may carry a path prefix); absent: the embedded reference server and its demo tokens. */
  baseUrl?: string | URL
  tokens?: Partial<Record<TokenRole, string>>
  /** Scenario files or folders; default: the built-in suites. */
  paths?: readonly string[]
  /** Reporter objects, or a `--reporter` list such as `'console,junit:reports/junit.xml'`; default: none. */
  reporters?: string | readonly Reporter[]
  /** Where report files and the cleanup ledger go (default `reports`). */
  outputDir?: string
  /** Text to look for in scenario ids and titles, as `--grep` takes it (`a|b`, `^` and `$` anchors). */
  grep?: string | GrepFilter
  tags?: readonly string[]
  shard?: Shard
  readOnly?: boolean
  strict?: boolean
  concurrency?: number
  timeoutMs?: number
  bail?: boolean
  insecure?: boolean
  /** PEM text of certificate authorities to trust. */
  ca?: string
  /** A response body past this many bytes blocks its step (default 8 MiB). */
  maxBodyBytes?: number
  /** What the suite sends where the spec gives no value, as `values` in the config file. */
  values?: Readonly<Record<string, string>>
  /** Abort to stop starting steps; what the run created is still cleaned up, and the exit code is 130. */
  signal?: AbortSignal
  /** The account survey (docs/account-survey.md); default: on when no path, grep, tag or shard narrows the run, as in the CLI. */
  survey?: boolean
  /** The survey's walk stops after this many activities (default 2500). */
  surveyMaxActivities?: number
  /** A YAML file of known failures (`--expect-failures`): they do not fail the run. */
  expectFailures?: string
  /** How long all `eventually` steps of the run may keep resending, together (default 60 000 ms). */
  maxPollingMs?: number
  /** A skipped scenario or permission-matrix cell fails the run (`--fail-on-skip`). */
  failOnSkip?: boolean
  /** Report files keep personal data as the server sent it (`--show-personal-data`). */
  showPersonalData?: boolean
  /** The console reporter lists every failure, not one evidence block per broken rule. */
  verbose?: boolean
  /**
   * Where the console reporter writes and where the run's notes go (the embedded server's address, the account
   * changes, the reports written, why nothing was sent); given, a run that sends nothing also removes the previous
   * run's report files, as the CLI does. Absent: reporters write to the process's terminal and no note is printed.
   */
  screen?: Screen
}

/**
 * How a run ended, with the exit code the CLI gives (0 pass, 1 failure, 2 load error, nothing selected or a report
 * the file system refused, 3 unreachable, 130 interrupted).
 */
export type RunOutcome =
  | { readonly kind: 'ran'; readonly exitCode: number; readonly result: ReportedRunResult }
  | { readonly kind: 'load-error'; readonly exitCode: 2; readonly diagnostics: readonly Diagnostic[] }
  | { readonly kind: 'nothing-selected'; readonly exitCode: 2 }
  | { readonly kind: 'unreachable'; readonly exitCode: 3; readonly diagnostics: readonly Diagnostic[] }
  /** An internal error (a bug): the diagnostic says what broke. */
  | { readonly kind: 'crashed'; readonly exitCode: 1; readonly diagnostics: readonly Diagnostic[] }

/**
 * Loads the scenarios and runs them: `fitconform run` is this function behind its flags.
 * @example const outcome = await run({ baseUrl: 'https://staging.example.com', tokens: { token }, reporters: 'console' })
 */
export async function run(options: RunOptions = {}): Promise<RunOutcome> {
  const screen = options.screen
  const note = (text: string): void => {
    screen?.err(text)
  }
  const printDiagnostic = (diagnostic: Diagnostic): void =>
    note(formatDiagnostic(diagnostic, { colors: screen?.colors ?? false }) + '\n')
  const outputDir = options.outputDir ?? RUN_DEFAULTS.outputDir
  const reporterList = typeof options.reporters === 'string' ? options.reporters : undefined
  // A run that ends before its first scenario leaves no earlier run's reports behind to be published as its own.
  const refuse = async <Kind extends 'load-error' | 'unreachable'>(
    kind: Kind,
    diagnostics: readonly Diagnostic[],
  ): Promise<RunOutcome> => {
    await removePreviousReports(screen, reporterList, outputDir)
    return kind === 'load-error'
      ? { kind, exitCode: EXIT.usage as 2, diagnostics }
      : { kind: 'unreachable', exitCode: EXIT.unreachable as 3, diagnostics }
  }
  const usage = (message: string): Diagnostic => ({ code: 'E_USAGE', kind: 'load', message })

  const noToken = missingMainToken(options.baseUrl, options.tokens)
  if (noToken) {
    printDiagnostic(usage(noToken))
    return refuse('load-error', [usage(noToken)])
  }
  let grep: GrepFilter | undefined
  try {
    grep = typeof options.grep === 'string' ? (options.grep ? parseGrep(options.grep) : undefined) : options.grep
  } catch (error) {
    const problem = usage(`--grep ${JSON.stringify(options.grep)} is not a valid pattern: ${(error as Error).message}`)
    printDiagnostic(problem)
    return refuse('load-error', [problem])
  }
  const paths = options.paths ?? []
  const loaded = await loadSuites(paths.length > 0 ? paths : [builtInSuites()])
  let known: KnownFailure[] = []
  const problems = [...loaded.diagnostics]
  if (options.expectFailures && problems.length === 0) {
    const expected = await loadKnownFailuresFor(options.expectFailures, loaded)
    known = expected.known
    problems.push(...expected.problems)
  }
  if (problems.length > 0) {
    for (const diagnostic of problems) printDiagnostic(diagnostic)
    note(`${problems.length} problem(s) in the scenario or known-failure files; nothing was sent.\n`)
    return refuse('load-error', problems)
  }
  if (reporterList !== undefined) {
    const folderProblem = await prepareReportFolders(reporterList, outputDir)
    if (folderProblem !== undefined) {
      printDiagnostic(usage(folderProblem))
      note('Nothing was sent.\n')
      return refuse('load-error', [usage(folderProblem)])
    }
  }
  let reporter: Multiplexer
  try {
    const reporters =
      reporterList !== undefined
        ? await createReporters(reporterList, {
            outputDir,
            screen: screen ?? processScreen(),
            showPersonalData: options.showPersonalData ?? false,
            verbose: options.verbose ?? false,
          })
        : ((options.reporters as readonly Reporter[] | undefined) ?? [])
    reporter = createMultiplexer(reporters)
  } catch (error) {
    const problem = usage(`--reporter: ${(error as Error).message}`)
    printDiagnostic(problem)
    return refuse('load-error', [problem])
  }

  let embedded: EmbeddedTarget | undefined
  try {
    let target: ConformanceTarget
    if (options.baseUrl !== undefined) {
      const baseUrl = new URL(String(options.baseUrl))
      target = { baseUrl, tokens: options.tokens ?? {}, label: withoutUserinfo(String(options.baseUrl)) }
    } else {
      embedded = await startEmbeddedTarget()
      target = embedded.target
      note(`No --base-url given: running against the embedded reference server at ${embedded.url}\n`)
    }
    const tags = options.tags ?? []
    const survey = options.survey ?? surveysByDefault({ paths, tags, grep: options.grep, shard: options.shard })
    const outcome = await runConformance(
      loaded.scenarios,
      loaded.rules,
      {
        target,
        filter: { readOnly: options.readOnly ?? false, tags, grep, shard: options.shard },
        strict: options.strict ?? false,
        concurrency: options.concurrency ?? RUN_DEFAULTS.concurrency,
        timeoutMs: options.timeoutMs ?? RUN_DEFAULTS.timeoutMs,
        bail: options.bail ?? false,
        insecure: options.insecure ?? false,
        maxBodyBytes: options.maxBodyBytes ?? RUN_DEFAULTS.maxBodyBytes,
        ca: options.ca,
        configValues: options.values ?? {},
        interrupted: options.signal,
        ledgerDir: outputDir,
        knownFailures: known,
        showPersonalData: options.showPersonalData ?? false,
        maxPollingMs: options.maxPollingMs ?? RUN_DEFAULTS.maxPollingSeconds * 1000,
        survey: survey ? { maxActivities: options.surveyMaxActivities ?? RUN_DEFAULTS.surveyMaxActivities } : undefined,
        failOnSkip: options.failOnSkip ?? false,
      },
      reporter,
    )
    if (outcome.kind === 'unreachable') {
      printDiagnostic(outcome.diagnostic)
      return await refuse('unreachable', [outcome.diagnostic])
    }
    if (outcome.kind === 'nothing-selected') {
      note(`No scenario selected: ${describeFilters(options, grep, loaded.scenarios.length)}. Nothing was sent.\n`)
      await removePreviousReports(screen, reporterList, outputDir)
      return { kind: 'nothing-selected', exitCode: EXIT.usage as 2 }
    }
    // The console reporter has listed failures and the run's own problems; the exit code follows the finalized result.
    const { result } = outcome
    if (result.cleanup) note(cleanupLine(result.cleanup) + '\n')
    const written = reporter.writtenFiles()
    if (written.length > 0) note(`Reports written: ${written.map(shortPath).join(', ')}\n`)
    const exit = exitOfRun(result, {
      reporterErrors: reporter.errors().length,
      interrupted: options.signal?.aborted ?? false,
      failOnSkip: options.failOnSkip ?? false,
    })
    if (exit.failedOnSkip)
      note(
        `--fail-on-skip: ${exit.failedOnSkip.scenarios} scenario(s) and ${exit.failedOnSkip.cells} permission-matrix step(s) skipped\n`,
      )
    // A report the file system refused (a full disk, a path that is no folder) is the user's to fix, as a bad --output-dir is.
    const unwritten = reporter.errors().filter((error) => isWriteFailure(error.message))
    if (unwritten.length > 0 && (exit.code === EXIT.ok || exit.code === EXIT.failed)) {
      note(
        `${unwritten.length} report(s) could not be written (above): free the disk or name a folder you can write to with --output-dir; exit 2.\n`,
      )
      return { kind: 'ran', exitCode: EXIT.usage, result }
    }
    return { kind: 'ran', exitCode: exit.code, result }
  } catch (error) {
    const diagnostic = toDiagnostic(error)
    printDiagnostic(diagnostic)
    if (error instanceof ConformanceError && error.diagnostic.kind === 'load') return refuse('load-error', [diagnostic])
    return { kind: 'crashed', exitCode: EXIT.failed as 1, diagnostics: [diagnostic] }
  } finally {
    await embedded?.close()
  }
}

export function builtInSuites(): string {
  return join(packageRoot(), 'suites')
}

/** Only for a `--reporter` list on a screen: the CLI's way, where report files are the previous run's to remove. */
async function removePreviousReports(
  screen: Screen | undefined,
  reporterList: string | undefined,
  outputDir: string,
): Promise<void> {
  if (screen === undefined || reporterList === undefined) return
  const removed = await removeReportFiles(reporterList, outputDir)
  if (removed.length > 0)
    screen.err(`Removed the previous run's reports (${removed.map(shortPath).join(', ')}): this run wrote none.\n`)
}

/** `created 3, deleted 3; changed 2, restored 2`: every count the account summary names adds up. */
export function cleanupLine(cleanup: CleanupSummary): string {
  const swept = cleanup.swept > 0 ? `; ${cleanup.swept} more found by the run marker and deleted` : ''
  const open = cleanup.openLedger
    ? `; NOT everything was undone: run \`fitconform cleanup\` (ledger ${cleanup.openLedger})`
    : ''
  const notRestored =
    cleanup.notRestored && cleanup.notRestored.length > 0 ? `; NOT restored: ${cleanup.notRestored.join('; ')}` : ''
  const notes = cleanup.notes && cleanup.notes.length > 0 ? `\n${cleanup.notes.join('\n')}` : ''
  return `Account changes: created ${cleanup.created}, deleted ${cleanup.deleted}; changed ${cleanup.changed}, restored ${cleanup.restored}${notRestored}${swept}${open}${notes}`
}

/** `--tag smoke, --grep "feeds?"` (of 120 scenarios loaded): what selected nothing. */
function describeFilters(options: RunOptions, grep: GrepFilter | undefined, loaded: number): string {
  const filters = [
    ...(options.tags ?? []).map((tag) => `--tag ${tag}`),
    ...(grep ? [`--grep ${JSON.stringify(grep.source)}`] : []),
    ...(options.shard ? [`--shard ${options.shard.index}/${options.shard.total}`] : []),
  ]
  const what =
    filters.length > 0
      ? `${filters.join(', ')} matched none of the ${loaded} scenarios loaded`
      : `the paths given hold no scenario`
  return `${what} (fitconform rules lists rule ids; tags are in the scenario files)`
}

/** Relative to the working directory when the file is under it, else absolute. */
function shortPath(file: string): string {
  const shown = relative(process.cwd(), file)
  return shown === '' || shown.startsWith('..') ? file : shown
}
