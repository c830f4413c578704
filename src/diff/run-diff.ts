import { join } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary } from '../model/result.js'
import type { Rule, Scenario, TokenRole } from '../model/scenario.js'
import { createRedactor } from '../execute/finalize/redact.js'
import { createRunValues } from '../execute/run-values.js'
import { runConformance, type ConformanceSettings } from '../execute/run-conformance.js'
import type { ConformanceTarget } from '../session/run-session.js'
import type { DiffResult, Side } from './diff-result.js'
import { pairRuns, type SideRun } from './diff-runs.js'
import { sideSummary, summarizeDiff } from './summarize-diff.js'

/** What both sides' runs share: everything of `run` but the target, the ledger folder and the run values. */
export type SharedSettings = Omit<ConformanceSettings, 'target' | 'ledgerDir' | 'run'>

export interface DiffSettings {
  readonly new: ConformanceTarget
  readonly reference: ConformanceTarget
  readonly shared: SharedSettings
  /** Each side's cleanup ledger goes to `<outputDir>/diff-new` and `<outputDir>/diff-reference`. */
  readonly outputDir?: string
}

export type DiffOutcome =
  | { readonly kind: 'diffed'; readonly result: DiffResult; readonly cleanup: Partial<Record<Side, CleanupSummary>> }
  | { readonly kind: 'unreachable'; readonly side: Side; readonly diagnostic: Diagnostic }
  | { readonly kind: 'nothing-selected' }

/**
 * Runs the scenarios against the reference server, then against the new one, each through the normal
 * run path (its write safety, cleanup and redaction), then compares them step by step. Both sides
 * get the same run values (marker, far year), so both are sent the same requests. The sides run one
 * after the other: two URLs may be the same server, and an exclusive scenario needs a quiet account.
 */
export async function runDiff(
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  settings: DiffSettings,
): Promise<DiffOutcome> {
  const startedAt = new Date()
  const run = createRunValues(startedAt)
  const sides: Partial<Record<Side, SideRun & { label: string }>> = {}
  const cleanup: Partial<Record<Side, CleanupSummary>> = {}
  for (const side of ['reference', 'new'] as const) {
    const target = settings[side]
    const outcome = await runConformance(
      scenarios,
      rules,
      {
        ...settings.shared,
        target,
        run,
        ...(settings.outputDir ? { ledgerDir: join(settings.outputDir, `diff-${side}`) } : {}),
      },
      {},
    )
    if (outcome.kind === 'unreachable') return { kind: 'unreachable', side, diagnostic: outcome.diagnostic }
    if (outcome.kind === 'nothing-selected') return { kind: 'nothing-selected' }
    sides[side] = { result: outcome.result, baseUrl: target.baseUrl, label: target.label }
    if (outcome.result.cleanup) cleanup[side] = outcome.result.cleanup
  }
  const runNew = sides.new!
  const runReference = sides.reference!
  const paired = pairRuns(runNew, runReference, rules)
  const result = summarizeDiff({
    mode: 'servers',
    startedAt,
    sides: {
      new: sideSummary(runNew.label, runNew.result.summary),
      reference: sideSummary(runReference.label, runReference.result.summary),
    },
    ...paired,
  })
  // Each run redacted its own tokens; the diff puts both sides' values side by side, so both sides' tokens are scrubbed from all of it.
  return { kind: 'diffed', result: redactBothSides(settings)(result), cleanup }
}

export function redactBothSides(targets: {
  readonly new: ConformanceTarget
  readonly reference?: ConformanceTarget
}): <T>(value: T) => T {
  const secrets = new Map<string, string>()
  for (const side of ['new', 'reference'] as const) {
    for (const [role, token] of Object.entries(targets[side]?.tokens ?? {}) as [TokenRole, string | undefined][])
      if (token) secrets.set(token, `${side} ${role}`)
  }
  return createRedactor(secrets)
}
