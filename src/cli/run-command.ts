import { withoutUserinfo } from '../shared/secrets.js'
import { join, relative } from 'node:path'
import { ConformanceError, toDiagnostic, type Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary } from '../model/result.js'
import { loadSuites } from '../load/load-suites.js'
import { packageRoot } from '../shared/package-root.js'
import { loadKnownFailuresFor, type KnownFailure } from '../expectations/known-failures.js'
import { createMultiplexer, type Multiplexer } from '../report/multiplexer.js'
import { DEFAULT_REPORTERS } from '../report/default-reporters.js'
import { createReporters } from '../report/registry.js'
import { formatDiagnostic } from '../report/format-diagnostic.js'
import { removeReportFiles } from '../report/report-files.js'
import type { Screen } from '../model/reporter.js'
import { runConformance, type ConformanceTarget } from '../execute/run-conformance.js'
import { startEmbeddedTarget, type EmbeddedTarget } from '../api/embedded-target.js'
import { exitOfRun } from '../api/exit-code.js'
import { EXIT } from '../shared/exit-codes.js'
import { listenForInterrupt } from './interrupt.js'
import { resolveRunOptions, type RunFlags, type RunOptions } from './run-options.js'
import { surveysByDefault } from '../spec/survey/survey-default.js'
import { processScreen } from '../api/screen.js'
import { isWriteFailure, prepareReportFolders } from './report-folders.js'

export function builtInSuites(): string {
  return join(packageRoot(), 'suites')
}

/** `fitconform run`: returns the exit code; the CLI file only wires it to commander. */
export async function runCommand(
  paths: readonly string[],
  flags: RunFlags,
  screen: Screen = processScreen(),
): Promise<number> {
  const printDiagnostic = (diagnostic: Diagnostic): void =>
    screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
  // A run that ends before its first scenario leaves no earlier run's reports behind to be published as its own.
  const endedEarly = async (
    code: number,
    reporterList = flags.reporter ?? DEFAULT_REPORTERS,
    outputDir = flags.outputDir ?? 'reports',
  ): Promise<number> => {
    const removed = await removeReportFiles(reporterList, outputDir)
    if (removed.length > 0)
      screen.err(`Removed the previous run's reports (${removed.map(shortPath).join(', ')}): this run wrote none.\n`)
    return code
  }
  let options
  try {
    options = resolveRunOptions(flags)
  } catch (error) {
    printDiagnostic(toDiagnostic(error))
    return error instanceof ConformanceError ? endedEarly(EXIT.usage) : EXIT.failed
  }
  const refuse = (code: number): Promise<number> =>
    endedEarly(code, options.reporter ?? DEFAULT_REPORTERS, options.outputDir)
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
    screen.err(`${problems.length} problem(s) in the scenario or known-failure files; nothing was sent.\n`)
    return refuse(EXIT.usage)
  }
  const folderProblem = await prepareReportFolders(options.reporter ?? DEFAULT_REPORTERS, options.outputDir)
  if (folderProblem !== undefined) {
    printDiagnostic({ code: 'E_USAGE', kind: 'load', message: folderProblem })
    screen.err('Nothing was sent.\n')
    return refuse(EXIT.usage)
  }
  let reporter: Multiplexer
  try {
    const reporters = await createReporters(options.reporter ?? DEFAULT_REPORTERS, {
      outputDir: options.outputDir,
      screen,
      showPersonalData: options.showPersonalData,
      verbose: options.verbose,
    })
    reporter = createMultiplexer(reporters)
  } catch (error) {
    printDiagnostic({ code: 'E_USAGE', kind: 'load', message: `--reporter: ${(error as Error).message}` })
    return refuse(EXIT.usage)
  }

  let embedded: EmbeddedTarget | undefined
  const interrupt = listenForInterrupt(screen, 'the steps in flight')
  try {
    let target: ConformanceTarget
    if (options.baseUrl) {
      target = { baseUrl: options.baseUrl, tokens: options.tokens, label: withoutUserinfo(options.baseUrl.toString()) }
    } else {
      embedded = await startEmbeddedTarget()
      target = embedded.target
      screen.err(`No --base-url given: running against the embedded reference server at ${embedded.url}\n`)
    }
    const outcome = await runConformance(
      loaded.scenarios,
      loaded.rules,
      {
        target,
        filter: {
          readOnly: options.readOnly,
          tags: options.tags,
          ...(options.grep ? { grep: options.grep } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
        },
        strict: options.strict,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutMs,
        bail: options.bail,
        insecure: options.insecure,
        maxBodyBytes: options.maxBodyBytes,
        ...(options.ca ? { ca: options.ca } : {}),
        configValues: options.values,
        interrupted: interrupt.signal,
        ledgerDir: options.outputDir,
        knownFailures: known,
        showPersonalData: options.showPersonalData,
        maxPollingMs: options.maxPollingMs,
        ...((options.survey ??
        surveysByDefault({ paths, tags: options.tags, grep: options.grep, shard: options.shard }))
          ? { survey: { maxActivities: options.surveyMaxActivities } }
          : {}),
        failOnSkip: options.failOnSkip,
      },
      reporter,
    )
    if (outcome.kind === 'unreachable') {
      printDiagnostic(outcome.diagnostic)
      return await refuse(EXIT.unreachable)
    }
    if (outcome.kind === 'nothing-selected') {
      screen.err(`No scenario selected: ${describeFilters(options, loaded.scenarios.length)}. Nothing was sent.\n`)
      return await refuse(EXIT.usage)
    }
    // The console reporter has listed failures and the run's own problems; the exit code follows the finalized result.
    const { result } = outcome
    if (result.cleanup) screen.err(cleanupLine(result.cleanup) + '\n')
    const written = reporter.writtenFiles()
    if (written.length > 0) screen.err(`Reports written: ${written.map(shortPath).join(', ')}\n`)
    const exit = exitOfRun(result, {
      reporterErrors: reporter.errors().length,
      interrupted: interrupt.signal.aborted,
      failOnSkip: options.failOnSkip,
    })
    if (exit.failedOnSkip)
      screen.err(
        `--fail-on-skip: ${exit.failedOnSkip.scenarios} scenario(s) and ${exit.failedOnSkip.cells} permission-matrix step(s) skipped\n`,
      )
    // A report the file system refused (a full disk, a path that is no folder) is the user's to fix, as a bad --output-dir is.
    const unwritten = reporter.errors().filter((error) => isWriteFailure(error.message))
    if (unwritten.length > 0 && (exit.code === EXIT.ok || exit.code === EXIT.failed)) {
      screen.err(
        `${unwritten.length} report(s) could not be written (above): free the disk or name a folder you can write to with --output-dir; exit 2.\n`,
      )
      return EXIT.usage
    }
    return exit.code
  } catch (error) {
    printDiagnostic(toDiagnostic(error))
    return error instanceof ConformanceError && error.diagnostic.kind === 'load'
      ? await refuse(EXIT.usage)
      : EXIT.failed
  } finally {
    interrupt.dispose()
    await embedded?.close()
  }
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
function describeFilters(options: RunOptions, loaded: number): string {
  const filters = [
    ...options.tags.map((tag) => `--tag ${tag}`),
    ...(options.grep ? [`--grep ${JSON.stringify(options.grep.source)}`] : []),
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
