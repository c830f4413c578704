import { relative } from 'node:path'
import { cwd } from 'node:process'
import { toDiagnostic } from '../model/diagnostic.js'
import type { Screen } from '../model/reporter.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import { run, type RunOptions as LibraryRunOptions } from '../api/run.js'
import { RUN_DEFAULTS } from '../api/defaults.js'
import { processScreen } from '../api/screen.js'
import { removeReportFiles } from '../report/files/report-files.js'
import { ConformanceError } from '../model/diagnostic.js'
import { EXIT } from '../shared/exit-codes.js'
import { listenForInterrupt } from './interrupt.js'
import { resolveRunOptions, type RunFlags, type RunOptions } from './options/run-options.js'

/** `fitconform run`: flags → the library's run() options → run() → exit code; commander's wiring is in program.ts. */
export async function runCommand(
  paths: readonly string[],
  flags: RunFlags,
  screen: Screen = processScreen(),
): Promise<number> {
  let options
  try {
    options = resolveRunOptions(flags)
  } catch (error) {
    screen.err(formatDiagnostic(toDiagnostic(error), { colors: screen.colors }) + '\n')
    if (!(error instanceof ConformanceError)) return EXIT.failed
    // A run that ends before its first scenario leaves no earlier run's reports behind to be published as its own.
    const removed = await removeReportFiles(
      flags.reporter ?? RUN_DEFAULTS.reporters,
      flags.outputDir ?? RUN_DEFAULTS.outputDir,
    )
    if (removed.length > 0)
      screen.err(`Removed the previous run's reports (${removed.map(shortPath).join(', ')}): this run wrote none.\n`)
    return EXIT.usage
  }
  const interrupt = listenForInterrupt(screen, 'the steps in flight')
  try {
    const outcome = await run(toRunOptions(paths, options, { screen, signal: interrupt.signal }))
    return outcome.exitCode
  } finally {
    interrupt.dispose()
  }
}

/** The resolved flags as the library's run() options: every `run` flag has its option (test/unit/api/run-options.test.ts). */
export function toRunOptions(
  paths: readonly string[],
  options: RunOptions,
  process: Pick<LibraryRunOptions, 'screen' | 'signal'> = {},
): LibraryRunOptions {
  return {
    ...process,
    paths,
    baseUrl: options.baseUrl,
    tokens: options.tokens,
    reporters: options.reporter ?? RUN_DEFAULTS.reporters,
    outputDir: options.outputDir,
    grep: options.grep,
    tags: options.tags,
    shard: options.shard,
    readOnly: options.readOnly,
    strict: options.strict,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    bail: options.bail,
    insecure: options.insecure,
    ca: options.ca,
    maxBodyBytes: options.maxBodyBytes,
    values: options.values,
    survey: options.survey,
    surveyMaxActivities: options.surveyMaxActivities,
    expectFailures: options.expectFailures,
    maxPollingMs: options.maxPollingMs,
    failOnSkip: options.failOnSkip,
    showPersonalData: options.showPersonalData,
    verbose: options.verbose,
  }
}

/** Relative to the working directory when the file is under it, else absolute. */
function shortPath(file: string): string {
  const shown = relative(cwd(), file)
  return shown === '' || shown.startsWith('..') ? file : shown
}
