import { join } from 'node:path'
import { surveysByDefault } from '../spec/survey/survey-default.js'
import { DEFAULT_SURVEY_MAX_ACTIVITIES } from '../spec/survey/survey-account.js'
import type { Diagnostic } from '../model/diagnostic.js'
import type { ReportedRunResult } from '../model/reported-result.js'
import type { TokenRole } from '../model/scenario.js'
import { loadSuites } from '../load/load-suites.js'
import { packageRoot } from '../shared/package-root.js'
import { parseGrep } from '../plan/grep-filter.js'
import type { Shard } from '../plan/plan-run.js'
import { createMultiplexer } from '../report/multiplexer.js'
import { createReporters } from '../report/registry.js'
import type { Reporter } from '../model/reporter.js'
import { startEmbeddedTarget } from './embedded-target.js'
import { exitOfRun } from './exit-code.js'
import { processScreen } from './screen.js'
import { runConformance, type ConformanceTarget } from '../execute/run-conformance.js'
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
  grep?: string
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
  /** What the suite sends where the spec gives no value, as `values` in the config file. */
  values?: Readonly<Record<string, string>>
  /** Abort to stop starting steps; what the run created is still cleaned up. */
  signal?: AbortSignal
  /** The account survey (docs/account-survey.md); default: on when no path, grep, tag or shard narrows the run, as in the CLI. */
  survey?: boolean
  /** The survey's walk stops after this many activities (default 2500). */
  surveyMaxActivities?: number
}

/** How a run ended, with the exit code the CLI would give (0 pass, 1 failure, 2 load error or nothing selected, 3 unreachable). */
export type RunOutcome =
  | { readonly kind: 'ran'; readonly exitCode: 0 | 1; readonly result: ReportedRunResult }
  | { readonly kind: 'load-error'; readonly exitCode: 2; readonly diagnostics: readonly Diagnostic[] }
  | { readonly kind: 'nothing-selected'; readonly exitCode: 2 }
  | { readonly kind: 'unreachable'; readonly exitCode: 3; readonly diagnostics: readonly Diagnostic[] }

/**
 * Loads the scenarios and runs them, as `fitconform run` does.
 * @example const outcome = await run({ baseUrl: 'https://staging.example.com', tokens: { token }, reporters: 'console' })
 */
export async function run(options: RunOptions = {}): Promise<RunOutcome> {
  const noToken = missingMainToken(options.baseUrl, options.tokens)
  if (noToken)
    return { kind: 'load-error', exitCode: 2, diagnostics: [{ code: 'E_USAGE', kind: 'load', message: noToken }] }
  const loaded = await loadSuites(options.paths ?? [join(packageRoot(), 'suites')])
  if (loaded.diagnostics.length > 0) return { kind: 'load-error', exitCode: 2, diagnostics: loaded.diagnostics }
  const outputDir = options.outputDir ?? 'reports'
  const reporters =
    typeof options.reporters === 'string'
      ? await createReporters(options.reporters, { outputDir, screen: processScreen(), showPersonalData: false })
      : (options.reporters ?? [])
  const reporter = createMultiplexer(reporters)
  const embedded = options.baseUrl === undefined ? await startEmbeddedTarget() : undefined
  try {
    const target: ConformanceTarget = embedded?.target ?? {
      baseUrl: new URL(String(options.baseUrl)),
      tokens: options.tokens ?? {},
      label: String(options.baseUrl),
    }
    const outcome = await runConformance(
      loaded.scenarios,
      loaded.rules,
      {
        target,
        filter: {
          readOnly: options.readOnly ?? false,
          tags: options.tags ?? [],
          ...(options.grep ? { grep: parseGrep(options.grep) } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
        },
        strict: options.strict ?? false,
        concurrency: options.concurrency ?? 4,
        timeoutMs: options.timeoutMs ?? 10_000,
        bail: options.bail ?? false,
        insecure: options.insecure ?? false,
        ...(options.ca ? { ca: options.ca } : {}),
        configValues: options.values ?? {},
        ...(options.signal ? { interrupted: options.signal } : {}),
        ledgerDir: outputDir,
        ...((options.survey ??
        surveysByDefault({
          paths: options.paths ?? [],
          tags: options.tags ?? [],
          grep: options.grep,
          shard: options.shard,
        }))
          ? { survey: { maxActivities: options.surveyMaxActivities ?? DEFAULT_SURVEY_MAX_ACTIVITIES } }
          : {}),
      },
      reporter,
    )
    if (outcome.kind === 'unreachable') return { kind: 'unreachable', exitCode: 3, diagnostics: [outcome.diagnostic] }
    if (outcome.kind === 'nothing-selected') return { kind: 'nothing-selected', exitCode: 2 }
    const { result } = outcome
    return {
      kind: 'ran',
      exitCode: exitOfRun(result, { reporterErrors: reporter.errors().length }).code === 0 ? 0 : 1,
      result,
    }
  } finally {
    await embedded?.close()
  }
}
