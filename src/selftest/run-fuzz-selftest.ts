import type { Rule, Scenario } from '../model/scenario.js'
import { runFuzz, type FuzzOutcome } from '../fuzz/run-fuzz.js'
import { runConformance } from '../execute/run-conformance.js'
import {
  fuzzMutants,
  serverModes,
  startReferenceServer,
  type MutantDefinition,
  type ServerMode,
} from '../../reference-server/index.js'

export interface FuzzSelftestRow {
  readonly target: string
  readonly rule?: string
  readonly description?: string
  /** Conforming servers must survive the fuzzing; fuzz-only mutants must be found by it. */
  readonly expectation: 'pass' | 'found'
  readonly fuzzFailedRule?: string
  /** For a fuzz-only mutant: whether the static suite failed on it too (it should not: that is why it is fuzz-only). */
  readonly staticKilled?: boolean
  readonly runs: number
  readonly ok: boolean
  readonly verdict: string
  readonly durationMs: number
}

export interface FuzzSelftestOptions {
  readonly seed: number
  /** A conforming server is fuzzed for the consecutive seeds seed … seed + seeds − 1, `runs` sequences each, and must pass them all. */
  readonly seeds: number
  readonly runs: number
  readonly timeoutMs: number
  readonly outputDir: string
  readonly onRow?: (row: FuzzSelftestRow) => void
}

/** Consecutive seeds a conforming server is fuzzed for, and sequences a seed: see docs/fuzzing.md for the measurement behind them. */
export const DEFAULT_FUZZ_SELFTEST_SEEDS = 100
export const DEFAULT_FUZZ_SELFTEST_RUNS = 10
/** A fuzz-only mutant is fuzzed with the first seed only, for this many sequences: what finds each under its own rule. */
export const FUZZ_SELFTEST_MUTANT_RUNS = 60

interface FuzzTargetSpec {
  readonly name: string
  readonly mode: ServerMode
  readonly mutant?: MutantDefinition
}

const CONFORMING: readonly FuzzTargetSpec[] = serverModes.map((mode) => ({ name: mode, mode }))

/**
 * Fuzzes every conforming mode (no failure allowed over `seeds` consecutive seeds) and each fuzz-only
 * mutant (a failure must be found with the first seed), each on its own reference server, all at once;
 * and runs the static suite against each fuzz-only mutant, to show what the fuzzer adds.
 */
export async function runFuzzSelftest(
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  options: FuzzSelftestOptions,
): Promise<FuzzSelftestRow[]> {
  const targets = [
    ...CONFORMING,
    ...fuzzMutants.map((mutant) => ({ name: mutant.name, mode: 'reference' as const, mutant })),
  ]
  return Promise.all(
    targets.map(async (target) => {
      const row = await fuzzTarget(target, scenarios, rules, options)
      options.onRow?.(row)
      return row
    }),
  )
}

async function fuzzTarget(
  target: FuzzTargetSpec,
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  options: FuzzSelftestOptions,
): Promise<FuzzSelftestRow> {
  const started = Date.now()
  const server = await startReferenceServer({
    mode: target.mode,
    mutant: target.mutant?.name,
    onInternalError: () => undefined,
  })
  const staticServer = target.mutant
    ? await startReferenceServer({ mode: target.mode, mutant: target.mutant.name, onInternalError: () => undefined })
    : undefined
  try {
    const staticRun = staticServer
      ? staticSuiteFails(staticServer.url, staticServer.tokens, scenarios, rules, options.timeoutMs)
      : Promise.resolve(undefined)
    const fuzz = (seed: number) =>
      runFuzz({
        target: { baseUrl: new URL(server.url), tokens: { token: server.tokens.token }, label: target.name },
        rules,
        seed,
        runs: target.mutant ? FUZZ_SELFTEST_MUTANT_RUNS : options.runs,
        // Enough to shrink each fuzz-only mutant's failure to a few steps; keeps the CI command within 2 minutes.
        shrinkBudgetMs: 15_000,
        readOnly: false,
        outputDir: `${options.outputDir}/${target.name}`,
        timeoutMs: options.timeoutMs,
        insecure: false,
        configValues: {},
      })
    const base = {
      target: target.name,
      durationMs: 0,
      rule: target.mutant?.rule,
      description: target.mutant?.description,
    }
    // One server across the seeds, as an account meets one run after another; the first failure ends it.
    // A fuzz-only mutant gets the first seed only.
    let runs = 0
    let ended: { seed: number; outcome: FuzzOutcome } | undefined
    const lastSeed = target.mutant ? options.seed : options.seed + options.seeds - 1
    for (let seed = options.seed; seed <= lastSeed && !ended; seed++) {
      const outcome = await fuzz(seed)
      if (outcome.kind === 'ran') runs += outcome.runs
      if (outcome.kind === 'unreachable' || outcome.failure) ended = { seed, outcome }
    }
    const staticKilled = await staticRun
    const durationMs = Date.now() - started
    const seeds = lastSeed === options.seed ? `seed ${options.seed}` : `seeds ${options.seed}–${lastSeed}`
    const expectation = target.mutant ? 'found' : 'pass'
    if (ended?.outcome.kind === 'unreachable')
      return { ...base, expectation, runs, ok: false, verdict: `UNREACHABLE at seed ${ended.seed}`, durationMs }
    const failure = ended?.outcome.kind === 'ran' ? ended.outcome.failure : undefined
    if (!target.mutant) {
      return {
        ...base,
        expectation,
        runs,
        ok: !failure,
        verdict: failure
          ? `FAILED ${failure.rule} at seed ${ended!.seed} (${failure.file})`
          : `survived ${runs} sequences (${seeds})`,
        durationMs,
        fuzzFailedRule: failure?.rule,
      }
    }
    return {
      ...base,
      expectation,
      runs,
      ok: failure !== undefined,
      verdict: failure
        ? `found: ${failure.rule}, shrunk to ${failure.steps} step(s)${failure.reproduced ? '' : ' (did not replay)'}`
        : `NOT FOUND in ${runs} sequences (${seeds})`,
      fuzzFailedRule: failure?.rule,
      staticKilled,
      durationMs,
    }
  } finally {
    await server.close()
    await staticServer?.close()
  }
}

async function staticSuiteFails(
  url: string,
  tokens: Awaited<ReturnType<typeof startReferenceServer>>['tokens'],
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  timeoutMs: number,
): Promise<boolean> {
  const outcome = await runConformance(
    scenarios,
    rules,
    {
      target: {
        baseUrl: new URL(url),
        label: 'static',
        tokens: {
          token: tokens.token,
          'other-token': tokens.otherToken,
          'revoked-token': tokens.revokedToken,
          'revoked-delete-token': tokens.revokedDeleteToken,
          'limited-token': tokens.limitedToken,
        },
      },
      filter: { readOnly: false },
      strict: false,
      concurrency: 4,
      timeoutMs,
      bail: false,
      insecure: false,
      configValues: {},
    },
    {},
  )
  return outcome.kind === 'ran' && outcome.result.scenarios.some((scenario) => scenario.status === 'failed')
}
