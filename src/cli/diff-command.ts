import { ConformanceError, toDiagnostic, type Diagnostic } from '../model/diagnostic.js'
import type { Screen } from '../model/reporter.js'
import { TOKEN_ROLES, type TokenRole } from '../model/scenario.js'
import { loadSuites } from '../load/load-suites.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import { startEmbeddedTarget, type EmbeddedTarget } from '../api/embedded-target.js'
import type { ConformanceTarget } from '../session/run-session.js'
import { MIN_SCRUBBED_SECRET_LENGTH } from '../shared/secrets.js'
import { EXIT } from '../shared/exit-codes.js'
import type { DiffResult } from '../diff/diff-result.js'
import { runDiff, type SharedSettings } from '../diff/run-diff.js'
import { replayRecording } from '../diff/replay-recording.js'
import { parseDiffReporters, writeDiffReports } from '../diff/report/write-diff-reports.js'
import { builtInSuites, cleanupLine } from '../api/run.js'
import { listenForInterrupt } from './interrupt.js'
import { resolveRunOptions, type RunFlags } from './options/run-options.js'
import { processScreen } from '../api/screen.js'

export type FailOn = 'conformance' | 'open-choice' | 'any'
export type EmbeddedMode = 'reference' | 'quirky' | 'other-choices'

/** `fitconform diff` flags: those of `run` for the new server, `--reference-*` for the incumbent. */
export interface DiffFlags extends RunFlags {
  referenceUrl?: URL
  referenceToken?: string
  referenceOtherToken?: string
  referenceRevokedToken?: string
  referenceRevokedDeleteToken?: string
  referenceLimitedToken?: string
  recording?: string
  failOn?: FailOn
  /** Without --base-url: the embedded server's mode (and mutant) stands for the new server. */
  mode?: EmbeddedMode
  mutant?: string
  /** Without --reference-url and --recording: the embedded server's mode for the reference. */
  referenceMode?: EmbeddedMode
}

const REFERENCE_FLAG_OF_ROLE: Record<TokenRole, keyof DiffFlags> = {
  token: 'referenceToken',
  'other-token': 'referenceOtherToken',
  'revoked-token': 'referenceRevokedToken',
  'revoked-delete-token': 'referenceRevokedDeleteToken',
  'limited-token': 'referenceLimitedToken',
}

/**
 * `fitconform diff`: returns the exit code (0 no difference at --fail-on's level, 1 some, 2 usage, 3 a side
 * unreachable, 130 interrupted).
 */
export async function diffCommand(
  paths: readonly string[],
  flags: DiffFlags,
  screen: Screen = processScreen(),
): Promise<number> {
  const printDiagnostic = (diagnostic: Diagnostic): void =>
    screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
  let options
  let reporters
  let referenceTokens
  try {
    options = resolveRunOptions(flags)
    referenceTokens = referenceTokensOf(flags)
    reporters = parseDiffReporters(options.reporter ?? 'console')
    if (flags.recording && flags.referenceUrl)
      throw usage('--recording and --reference-url both name the reference: give one')
  } catch (error) {
    printDiagnostic(toDiagnostic(error instanceof ConformanceError ? error : usage((error as Error).message)))
    return EXIT.usage
  }
  const embedded: EmbeddedTarget[] = []
  const interrupt = listenForInterrupt(screen, 'the steps in flight')
  try {
    const targetNew = options.baseUrl
      ? { baseUrl: options.baseUrl, tokens: options.tokens, label: options.baseUrl.toString() }
      : await startEmbedded(embedded, {
          mode: flags.mode ?? 'reference',
          mutant: flags.mutant,
        })
    const shared: SharedSettings = {
      filter: {
        readOnly: options.readOnly,
        tags: options.tags,
        grep: options.grep,
        shard: options.shard,
      },
      strict: options.strict,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      bail: false,
      insecure: options.insecure,
      maxBodyBytes: options.maxBodyBytes,
      ca: options.ca,
      configValues: options.values,
      interrupted: interrupt.signal,
      showPersonalData: options.showPersonalData,
      maxPollingMs: options.maxPollingMs,
    }
    let result: DiffResult
    if (flags.recording) {
      const outcome = await replayRecording(flags.recording, { new: targetNew, shared, outputDir: options.outputDir })
      if (outcome.kind === 'unreachable') return unreachable(outcome.diagnostic, 'new')
      if (outcome.kind === 'nothing-to-replay') {
        screen.err(`${outcome.reason}; nothing was sent.\n`)
        return EXIT.usage
      }
      for (const warning of outcome.warnings) screen.err(`${warning}\n`)
      if (outcome.cleanup) screen.err(`new server: ${cleanupLine(outcome.cleanup)}\n`)
      result = outcome.result
    } else {
      const loaded = await loadSuites(paths.length > 0 ? paths : [builtInSuites()])
      if (loaded.diagnostics.length > 0) {
        for (const diagnostic of loaded.diagnostics) printDiagnostic(diagnostic)
        return EXIT.usage
      }
      const targetReference = flags.referenceUrl
        ? { baseUrl: flags.referenceUrl, tokens: referenceTokens, label: flags.referenceUrl.toString() }
        : await startEmbedded(embedded, { mode: flags.referenceMode ?? 'reference' })
      const outcome = await runDiff(loaded.scenarios, loaded.rules, {
        new: targetNew,
        reference: targetReference,
        shared,
        outputDir: options.outputDir,
      })
      if (outcome.kind === 'unreachable') return unreachable(outcome.diagnostic, outcome.side)
      if (outcome.kind === 'nothing-selected') {
        screen.err('No scenario selected by the filters given; nothing was sent.\n')
        return EXIT.usage
      }
      for (const [side, cleanup] of Object.entries(outcome.cleanup))
        if (cleanup) screen.err(`${side} server: ${cleanupLine(cleanup)}\n`)
      result = outcome.result
    }
    const written = await writeDiffReports(result, reporters, {
      outputDir: options.outputDir,
      screen,
      stepSummaryFile: process.env['GITHUB_STEP_SUMMARY'],
    })
    if (written.length > 0) screen.err(`Reports written: ${written.join(', ')}\n`)
    if (interrupt.signal.aborted) return EXIT.interrupted
    return failsAt(result, flags.failOn ?? 'conformance') ? EXIT.failed : EXIT.ok
  } catch (error) {
    const diagnostic = toDiagnostic(error)
    printDiagnostic(diagnostic)
    // A load error here is the user's input (a recording line past the reader's bounds): exit 2.
    return diagnostic.kind === 'load' ? EXIT.usage : EXIT.failed
  } finally {
    interrupt.dispose()
    for (const server of embedded) await server.close()
  }

  function unreachable(diagnostic: Diagnostic, side: string): number {
    screen.err(`The ${side} server could not be used:\n`)
    printDiagnostic(diagnostic)
    return EXIT.unreachable
  }

  async function startEmbedded(
    started: EmbeddedTarget[],
    variant: { mode: EmbeddedMode; mutant?: string },
  ): Promise<ConformanceTarget> {
    const server = await startEmbeddedTarget(variant)
    started.push(server)
    screen.err(`Using the ${server.target.label}\n`)
    return server.target
  }
}

/** --fail-on: `conformance` (default) < `open-choice` (also open choices) < `any` (also extensions). */
export function failsAt(result: DiffResult, level: FailOn): boolean {
  const { conformance, openChoice, extension } = result.summary
  if (conformance > 0) return true
  if (level === 'conformance') return false
  if (openChoice > 0) return true
  return level === 'any' && extension > 0
}

function referenceTokensOf(flags: DiffFlags): Partial<Record<TokenRole, string>> {
  const tokens: Partial<Record<TokenRole, string>> = {}
  for (const role of TOKEN_ROLES) {
    const value = flags[REFERENCE_FLAG_OF_ROLE[role]] as string | undefined
    if (!value) continue
    // As for `run`: a token this short could not be scrubbed from reports without scrubbing ordinary text.
    if (value.length < MIN_SCRUBBED_SECRET_LENGTH)
      throw usage(
        `the reference ${role} is ${value.length} characters long: fitconform refuses tokens shorter than ${MIN_SCRUBBED_SECRET_LENGTH} characters`,
      )
    tokens[role] = value
  }
  return tokens
}

function usage(message: string): ConformanceError {
  return new ConformanceError({ code: 'E_USAGE', kind: 'load', message })
}
