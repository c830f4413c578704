import type { Diagnostic } from '../model/diagnostic.js'
import type { ReportedRunResult } from '../model/reported-result.js'
import {
  RESULT_SCHEMA_VERSION,
  type BusySummary,
  type PollingSummary,
  type RunResult,
  type ScenarioResult,
} from '../model/result.js'
import type { Rule, Scenario, TokenRole } from '../model/scenario.js'
import type { BusyBudget } from './http/busy-retry.js'
import type { PollingBudget } from './step/step-polling.js'
import { openRunSession, type ConformanceTarget } from '../session/run-session.js'
import { createFinalizer } from './finalize/finalize-run.js'
import { countSkips } from '../model/skip-count.js'
import { notTestedForMissingTokens } from '../plan/not-tested.js'
import type { RunValues } from './run-context.js'

import { runPlan } from './run-plan.js'
import type { KnownFailure } from '../known-failures/known-failures.js'
import { planRun, type RunFilter, type RunPlan } from '../plan/plan-run.js'
import type { Reporter, RunPlanView } from '../model/reporter.js'
import { packageVersion } from '../shared/package-root.js'
import { runSurvey } from '../survey/run-survey.js'
import type { SurveySettings } from '../spec/survey/survey-account.js'

export interface ConformanceSettings {
  readonly target: ConformanceTarget
  readonly filter: Omit<RunFilter, 'availableRoles'>
  readonly strict: boolean
  readonly concurrency: number
  readonly timeoutMs: number
  readonly bail: boolean
  readonly ca?: string
  readonly insecure: boolean
  /** --max-body-bytes: a response body past it blocks its step (default 8 MiB). */
  readonly maxBodyBytes?: number
  readonly configValues: Readonly<Record<string, string>>
  /** Aborted on SIGINT/SIGTERM: no new step starts, cleanup still runs. */
  readonly interrupted?: AbortSignal
  /** Folder of the cleanup ledger; without it nothing is written down (the self-test's throwaway servers). */
  readonly ledgerDir?: string
  /** --expect-failures entries, applied by the finalize stage. */
  readonly knownFailures?: readonly KnownFailure[]
  /** --show-personal-data: reporters get the values as the server sent them. */
  readonly showPersonalData?: boolean
  /** --max-polling: how long all `eventually` steps of the run may keep resending, together (default 60 s). */
  readonly maxPollingMs?: number
  /** The account survey (src/spec/survey/): read-only checks over existing activities, before any scenario writes. Absent: not run. */
  readonly survey?: SurveySettings
  /** The run's id, marker and far year; absent: new ones. `diff` gives both sides the same, so both get the same requests. */
  readonly run?: RunValues
  /** --fail-on-skip: a skipped scenario or permission-matrix cell fails the run, and the result says so. */
  readonly failOnSkip?: boolean
}

const DEFAULT_MAX_POLLING_MS = 60_000

export type ConformanceOutcome =
  /** Nothing answered, or the preflight failed (exit 3): no scenario ran. */
  | { readonly kind: 'unreachable'; readonly diagnostic: Diagnostic }
  /** The filters, tags and shard left no scenario to run (exit 2). */
  | { readonly kind: 'nothing-selected'; readonly plan: RunPlan }
  | { readonly kind: 'ran'; readonly result: ReportedRunResult; readonly plan: RunPlan }

/** Plans and runs loaded scenarios against one target and hands every event to the reporter. */
export async function runConformance(
  scenarios: readonly Scenario[],
  rules: readonly Rule[],
  settings: ConformanceSettings,
  reporter: Reporter,
): Promise<ConformanceOutcome> {
  const startedAt = new Date()
  const availableRoles = new Set(
    (Object.keys(settings.target.tokens) as TokenRole[]).filter((role) => settings.target.tokens[role]),
  )
  const plan = planRun(scenarios, { ...settings.filter, availableRoles })
  if (plan.order.length === 0) return { kind: 'nothing-selected', plan }
  const notTested = notTestedForMissingTokens(plan, availableRoles)
  const opened = await openRunSession(settings, {
    startedAt,
    strict: settings.strict,
    run: settings.run,
    writes: plan.order.some((scenario) => scenario.writes),
    suite: { maxPollingMs: settings.maxPollingMs ?? DEFAULT_MAX_POLLING_MS },
  })
  if ('unreachable' in opened) return { kind: 'unreachable', diagnostic: opened.unreachable }
  const { session } = opened
  const { context, notices } = session
  const finalizer = createFinalizer({
    knownFailures: settings.knownFailures ?? [],
    showPersonalData: settings.showPersonalData ?? false,
    rules,
  })
  try {
    const view: RunPlanView = {
      target: settings.target.label,
      strict: settings.strict,
      rules,
      scenarios: plan.order.map(({ id, title, file, rules: r, tags }) => ({ id, title, file, rules: r, tags })),
      missingTokens: notTested,
      ...(notices.length > 0 ? { notices } : {}),
    }
    await reporter.onRunStart?.(view)
    // The survey judges the account as it is, so it runs before any scenario can write to it.
    const surveyed = settings.survey
      ? await runSurvey(
          context,
          { ...settings.survey, concurrency: settings.concurrency },
          { onScenarioEnd: (result) => reporter.onScenarioEnd?.(finalizer.scenario(result)) },
        )
      : []
    const results = [
      ...surveyed,
      ...(await runPlan(plan, {
        context,
        reporter,
        concurrency: settings.concurrency,
        bail: settings.bail,
        polling: session.polling,
        finalizeScenario: finalizer.scenario,
      })),
    ]
    const wrote = results.some((result) =>
      result.steps.some(
        (step) => step.request !== undefined && step.request.method !== 'GET' && step.request.method !== 'HEAD',
      ),
    )
    // Only a POST can have created something whose Location never reached us.
    const posted = results.some((result) => result.steps.some((step) => step.request?.method === 'POST'))
    const cleanup = await session.finish({ wrote, posted })
    const polling = pollingSummary(session.polling)
    // Redacted whole before it is finalized: cleanup messages and diagnostics name URLs a server chose (a Location may carry a token).
    // The step results in it were redacted as they ended: the redactor keeps those and walks only what is new around them.
    const result = finalizer.run(
      context.redact({
        ...buildRunResult(results, settings, startedAt, cleanup.problems),
        ...(notTested.length > 0 ? { notTested } : {}),
        ...(notices.length > 0 ? { notices } : {}),
        cleanup: cleanup.summary,
        polling,
        ...busySummary(session.busy),
      }),
    )
    await reporter.onRunEnd?.(result, view)
    return { kind: 'ran', result, plan }
  } finally {
    await session.close()
  }
}

/** Reported only when some step polled. */
function pollingSummary(budget: PollingBudget | undefined): PollingSummary | undefined {
  if (!budget || (budget.spentMs === 0 && budget.cappedSteps === 0)) return undefined
  return { spentMs: Math.round(budget.spentMs), capMs: budget.capMs, cappedSteps: budget.cappedSteps }
}

/** Reported only when the server answered busy at least once. */
function busySummary(budget: BusyBudget | undefined): { busy?: BusySummary } {
  if (!budget || budget.answers === 0) return {}
  return {
    busy: {
      answers: budget.answers,
      waitedMs: Math.round(budget.waitedMs),
      capMs: budget.capMs,
      stayedBusy: budget.stayedBusy,
    },
  }
}

function buildRunResult(
  scenarios: readonly ScenarioResult[],
  settings: Pick<ConformanceSettings, 'strict' | 'target' | 'failOnSkip'>,
  startedAt: Date,
  diagnostics: readonly Diagnostic[] = [],
): RunResult {
  const count = (status: ScenarioResult['status']): number =>
    scenarios.filter((scenario) => scenario.status === status).length
  const skips = countSkips(scenarios)
  const failedOnSkip = settings.failOnSkip && (skips.scenarios > 0 || skips.cells > 0)
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'fitconform', version: packageVersion() },
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    target: settings.target.label,
    strict: settings.strict,
    summary: {
      total: scenarios.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      warnings: scenarios.reduce((sum, scenario) => sum + scenario.warnings.length, 0),
      skippedCells: skips.cells,
    },
    ...(failedOnSkip ? { failedOnSkip: skips } : {}),
    scenarios,
    diagnostics: [...diagnostics, ...cleanupDiagnostics(scenarios)],
  }
}

function cleanupDiagnostics(scenarios: readonly ScenarioResult[]): Diagnostic[] {
  return scenarios.flatMap((scenario) =>
    scenario.cleanup
      .filter((step) => step.status === 'failed' || step.status === 'error')
      .map((step) => ({
        code: 'E_CLEANUP' as const,
        kind: 'error' as const,
        message: `${scenario.id}: cleanup step "${step.name}" did not succeed; the account may need a manual look`,
        at: step.at,
      })),
  )
}
