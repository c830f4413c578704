import type { Rule, Scenario } from '../model/scenario.js'
import { runFuzz } from '../fuzz/run-fuzz.js'
import { runConformance } from '../execute/run-conformance.js'
import { fuzzMutants, startReferenceServer, type MutantDefinition, type ServerMode } from '../../reference-server/index.js'

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
  readonly runs: number
  readonly timeoutMs: number
  readonly outputDir: string
  readonly onRow?: (row: FuzzSelftestRow) => void
}

interface FuzzTargetSpec {
  readonly name: string
  readonly mode: ServerMode
  readonly mutant?: MutantDefinition
}

const CONFORMING: readonly FuzzTargetSpec[] = [
  { name: 'reference', mode: 'reference' },
  { name: 'quirky', mode: 'quirky' },
  { name: 'other-choices', mode: 'other-choices' },
]

/**
 * Fuzzes the conforming servers (no failure allowed) and each fuzz-only mutant (a failure must be
 * found), each on its own reference server, all at once; and runs the static suite against each
 * fuzz-only mutant, to show what the fuzzer adds.
 */
export async function runFuzzSelftest(scenarios: readonly Scenario[], rules: readonly Rule[], options: FuzzSelftestOptions): Promise<FuzzSelftestRow[]> {
  const targets = [...CONFORMING, ...fuzzMutants.map((mutant) => ({ name: mutant.name, mode: 'reference' as const, mutant }))]
  return Promise.all(
    targets.map(async (target) => {
      const row = await fuzzTarget(target, scenarios, rules, options)
      options.onRow?.(row)
      return row
    }),
  )
}

async function fuzzTarget(target: FuzzTargetSpec, scenarios: readonly Scenario[], rules: readonly Rule[], options: FuzzSelftestOptions): Promise<FuzzSelftestRow> {
  const started = Date.now()
  const server = await startReferenceServer({ mode: target.mode, ...(target.mutant ? { mutant: target.mutant.name } : {}), onInternalError: () => undefined })
  const staticServer = target.mutant ? await startReferenceServer({ mode: target.mode, mutant: target.mutant.name, onInternalError: () => undefined }) : undefined
  try {
    const staticRun = staticServer ? staticSuiteFails(staticServer.url, staticServer.tokens, scenarios, rules, options.timeoutMs) : Promise.resolve(undefined)
    const outcome = await runFuzz({
      target: { baseUrl: new URL(server.url), tokens: { token: server.tokens.token }, label: target.name },
      rules,
      seed: options.seed,
      runs: options.runs,
      // Enough to shrink each fuzz-only mutant's failure to a few steps; keeps the CI command within 2 minutes.
      shrinkBudgetMs: 15_000,
      readOnly: false,
      outputDir: `${options.outputDir}/${target.name}`,
      timeoutMs: options.timeoutMs,
      insecure: false,
      configValues: {},
    })
    const staticKilled = await staticRun
    const base = { target: target.name, durationMs: 0, ...(target.mutant ? { rule: target.mutant.rule, description: target.mutant.description } : {}) }
    if (outcome.kind === 'unreachable') return { ...base, expectation: target.mutant ? 'found' : 'pass', runs: 0, ok: false, verdict: 'UNREACHABLE', durationMs: Date.now() - started }
    const failure = outcome.failure
    const durationMs = Date.now() - started
    if (!target.mutant) return { ...base, expectation: 'pass', runs: outcome.runs, ok: !failure, verdict: failure ? `FAILED ${failure.rule} (${failure.file})` : `survived ${outcome.runs} sequences`, durationMs, ...(failure ? { fuzzFailedRule: failure.rule } : {}) }
    return {
      ...base,
      expectation: 'found',
      runs: outcome.runs,
      ok: failure !== undefined,
      verdict: failure ? `found: ${failure.rule}, shrunk to ${failure.steps} step(s)${failure.reproduced ? '' : ' (did not replay)'}` : `NOT FOUND in ${outcome.runs} sequences`,
      ...(failure ? { fuzzFailedRule: failure.rule } : {}),
      ...(staticKilled !== undefined ? { staticKilled } : {}),
      durationMs,
    }
  } finally {
    await server.close()
    await staticServer?.close()
  }
}

async function staticSuiteFails(url: string, tokens: Awaited<ReturnType<typeof startReferenceServer>>['tokens'], scenarios: readonly Scenario[], rules: readonly Rule[], timeoutMs: number): Promise<boolean> {
  const outcome = await runConformance(scenarios, rules, {
    target: { baseUrl: new URL(url), label: 'static', tokens: { token: tokens.token, 'other-token': tokens.otherToken, 'revoked-token': tokens.revokedToken, 'revoked-delete-token': tokens.revokedDeleteToken, 'limited-token': tokens.limitedToken } },
    filter: { readOnly: false },
    strict: false,
    concurrency: 4,
    timeoutMs,
    bail: false,
    insecure: false,
    configValues: {},
  }, {})
  return outcome.kind === 'ran' && outcome.result.scenarios.some((scenario) => scenario.status === 'failed')
}
