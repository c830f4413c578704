import type { Rule, Scenario } from '../model/scenario.js'
import type { RunResult } from '../model/result.js'
import { runConformance } from '../execute/run-conformance.js'
import { startReferenceServer } from '../../reference-server/index.js'
import type { SelftestTarget } from './selftest-targets.js'
import { BLAME_BUDGET, judgeBlame, type Blame } from './blame.js'
import { forEachInSlots } from '../shared/worker-pool.js'
import { DEFAULT_SURVEY_MAX_ACTIVITIES } from '../spec/survey/survey-account.js'

export interface SelftestRow {
  readonly target: string
  readonly rule?: string
  readonly description?: string
  readonly expectation: SelftestTarget['expectation']
  /** Scenarios that failed against this target. */
  readonly failedScenarios: readonly string[]
  /** Rule ids of the failed assertions. */
  readonly failedRules: readonly string[]
  /** For a mutant: whether a failed assertion names the very rule it breaks. */
  readonly killedForItsRule?: boolean
  /** For a killed mutant: its own rule against the other rules it was blamed on (blame.ts). */
  readonly blame?: Blame
  readonly ok: boolean
  readonly verdict: string
  readonly durationMs: number
}

export interface SelftestOptions {
  readonly concurrency: number
  readonly timeoutMs: number
  readonly onRow?: (row: SelftestRow) => void
}

/**
 * Runs the suite against every target, each on its own reference server in this process. Targets
 * run concurrently because most of a run is deliberate waiting (one-second HTTP dates, polling).
 */
export async function runSelftest(
  targets: readonly SelftestTarget[],
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  options: SelftestOptions,
): Promise<SelftestRow[]> {
  const rows = new Map<SelftestTarget, SelftestRow>()
  await forEachInSlots(targets, options.concurrency, async (target) => {
    const row = await runTarget(target, scenarios, rules, options.timeoutMs)
    rows.set(target, row)
    options.onRow?.(row)
  })
  return targets.map((target) => rows.get(target)!)
}

async function runTarget(
  target: SelftestTarget,
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  timeoutMs: number,
): Promise<SelftestRow> {
  const started = Date.now()
  const server = await startReferenceServer({
    mode: target.mode,
    mutant: target.mutant?.name,
    onInternalError: () => undefined,
  })
  try {
    const { tokens } = server
    const outcome = await runConformance(
      scenarios,
      rules,
      {
        target: {
          baseUrl: new URL(server.url),
          label: target.name,
          tokens: {
            token: tokens.token,
            'other-token': tokens.otherToken,
            'revoked-token': tokens.revokedToken,
            'revoked-delete-token': tokens.revokedDeleteToken,
            'limited-token': tokens.limitedToken,
          },
        },
        filter: { readOnly: false },
        strict: target.strict,
        concurrency: 4,
        timeoutMs,
        bail: false,
        insecure: false,
        configValues: {},
        survey: { maxActivities: DEFAULT_SURVEY_MAX_ACTIVITIES },
      },
      {},
    )
    const catalogue = new Map(rules.map((rule) => [rule.id, rule]))
    return judge(target, outcome.kind === 'ran' ? outcome.result : undefined, catalogue, Date.now() - started)
  } finally {
    await server.close()
  }
}

function judge(
  target: SelftestTarget,
  result: RunResult | undefined,
  catalogue: ReadonlyMap<string, Rule>,
  durationMs: number,
): SelftestRow {
  const failed = result?.scenarios.filter((scenario) => scenario.status === 'failed') ?? []
  const failedRules = [
    ...new Set(
      failed.flatMap((scenario) =>
        [...scenario.steps, ...scenario.cleanup].flatMap((step) =>
          step.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules),
        ),
      ),
    ),
  ].sort()
  const errored = failed.some((scenario) => scenario.steps.some((step) => step.status === 'error'))
  const base = {
    target: target.name,
    expectation: target.expectation,
    failedScenarios: failed.map((s) => s.id),
    failedRules,
    durationMs,
    rule: target.mutant?.rule,
    description: target.mutant?.description,
  }
  if (!result) return { ...base, ok: false, verdict: 'UNREACHABLE' }
  switch (target.expectation) {
    case 'pass':
      return {
        ...base,
        ok: failed.length === 0 && result.diagnostics.length === 0,
        verdict: failed.length === 0 ? 'passed' : `FAILED ${failed.length} scenario(s)`,
      }
    case 'fail-only-irregularities': {
      const onlyIrregular = failed.length > 0 && failedRules.every((rule) => rule.startsWith('IRREG-')) && !errored
      return {
        ...base,
        ok: onlyIrregular,
        verdict: onlyIrregular
          ? 'failed only for IRREG-* rules'
          : failed.length === 0
            ? 'PASSED (irregularities not caught)'
            : `FAILED for other rules too: ${failedRules.filter((r) => !r.startsWith('IRREG-')).join(', ')}`,
      }
    }
    case 'fail': {
      if (failed.length === 0 || !target.mutant)
        return { ...base, killedForItsRule: false, ok: false, verdict: 'SURVIVED' }
      const blame = judgeBlame(target.mutant.rule, failedRules, catalogue)
      return {
        ...base,
        killedForItsRule: blame.ownRuleFailed,
        blame,
        ok: blame.withinBudget,
        verdict: mutantVerdict(blame),
      }
    }
  }
}

/** One phrase for a killed mutant: killed exactly, within the blame budget, or how it was mis-blamed. */
function mutantVerdict(blame: Blame): string {
  if (!blame.ownRuleFailed) return `KILLED ONLY FOR OTHER RULES: ${blame.others.join(', ')}`
  if (blame.exact) return 'killed'
  const also = `also blamed ${blame.others.join(', ')}`
  if (blame.withinBudget) return `killed; ${also} (tied)`
  const why = [
    ...(blame.others.length > BLAME_BUDGET ? [`${blame.others.length} other rules, budget ${BLAME_BUDGET}`] : []),
    ...(blame.untied.length > 0 ? [`untied: ${blame.untied.join(', ')}`] : []),
  ]
  return `MIS-BLAMED: ${also} (${why.join('; ')})`
}
