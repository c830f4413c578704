import { randomBytes } from 'node:crypto'
import type { Diagnostic } from './model/diagnostic.js'
import type { ReportedRunResult } from './model/reported-result.js'
import { RESULT_SCHEMA_VERSION, type CleanupItem, type CleanupSummary, type PollingSummary, type RunResult, type ScenarioResult } from './model/result.js'
import type { Rule, Scenario, TokenRole } from './model/scenario.js'
import { createFinalizer } from './execute/finalize-run.js'
import { createHttpClient } from './execute/http-client.js'
import { createLedger, readOpenWork } from './execute/ledger.js'
import { createRedactor } from './execute/redact.js'
import { sweepMarked } from './execute/undo.js'
import { DEFAULT_CONFIG_VALUES, type RunContext } from './execute/run-context.js'
import { runPlan } from './execute/run-plan.js'
import { preflight } from './execute/preflight.js'
import type { KnownFailure } from './expectations/known-failures.js'
import { envVarOfRole, planRun, type RunFilter, type RunPlan } from './plan/plan-run.js'
import type { MissingToken, Reporter, RunPlanView } from './report/reporter.js'
import { packageVersion } from './package-root.js'

export interface ConformanceTarget {
  readonly baseUrl: URL
  readonly tokens: Readonly<Partial<Record<TokenRole, string>>>
  /** How reports name the target; never holds a token. */
  readonly label: string
}

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
}

export const DEFAULT_MAX_POLLING_MS = 60_000

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
  const availableRoles = new Set((Object.keys(settings.target.tokens) as TokenRole[]).filter((role) => settings.target.tokens[role]))
  const plan = planRun(scenarios, { ...settings.filter, availableRoles })
  if (plan.order.length === 0) return { kind: 'nothing-selected', plan }
  const secrets = new Map<string, string>()
  for (const [role, token] of Object.entries(settings.target.tokens)) if (token) secrets.set(token, role)
  const client = createHttpClient({ timeoutMs: settings.timeoutMs, insecure: settings.insecure, ...(settings.ca ? { ca: settings.ca } : {}), ...(settings.maxBodyBytes ? { maxBodyBytes: settings.maxBodyBytes } : {}) })
  const run = createRunValues(startedAt)
  const probeContext: RunContext = {
    baseUrl: settings.target.baseUrl,
    tokens: settings.target.tokens,
    client,
    timeoutMs: settings.timeoutMs,
    strict: settings.strict,
    run,
    config: { ...DEFAULT_CONFIG_VALUES, ...settings.configValues },
    redact: createRedactor(secrets),
    interrupted: settings.interrupted ?? new AbortController().signal,
    polling: { spentMs: 0, capMs: settings.maxPollingMs ?? DEFAULT_MAX_POLLING_MS, cappedSteps: 0 },
  }
  const finalizer = createFinalizer({ knownFailures: settings.knownFailures ?? [], showPersonalData: settings.showPersonalData ?? false, rules })
  try {
    const unreachable = plan.skipped.length === plan.order.length ? undefined : await preflight(probeContext)
    if (unreachable) return { kind: 'unreachable', diagnostic: unreachable }
    // Only now, with a server there, is there anything to write down.
    const ledger = settings.ledgerDir ? createLedger(settings.ledgerDir, run.id, probeContext.redact) : undefined
    ledger?.record({ type: 'run', runId: run.id, marker: run.marker, farYear: run.farYear, target: settings.target.baseUrl.toString(), at: startedAt.toISOString() })
    const context: RunContext = { ...probeContext, ...(ledger ? { ledger } : {}) }
    const view: RunPlanView = { target: settings.target.label, strict: settings.strict, rules, scenarios: plan.order.map(({ id, title, file, rules: r, tags }) => ({ id, title, file, rules: r, tags })), missingTokens: missingTokens(plan) }
    await reporter.onRunStart?.(view)
    const results = await runPlan(plan, { context, reporter, concurrency: settings.concurrency, bail: settings.bail, finalizeScenario: finalizer.scenario })
    const cleanup = await finishCleanup(context, results)
    const polling = pollingSummary(context)
    // Redacted whole before it is finalized: cleanup messages and diagnostics name URLs a server chose (a Location may carry a token).
    const result = finalizer.run(context.redact({ ...buildRunResult(results, settings, startedAt, cleanup.problems), ...(cleanup.summary ? { cleanup: cleanup.summary } : {}), ...(polling ? { polling } : {}) }))
    await reporter.onRunEnd?.(result, view)
    return { kind: 'ran', result, plan }
  } finally {
    await client.close()
  }
}

/**
 * After the scenarios: sweep the run's marker (a create whose response was lost still carries it; an
 * activity the run deleted that came back is a delete failure), then close the ledger if nothing is
 * owed, and tell what was created, changed, restored, refused as not proven ours, and left behind.
 */
async function finishCleanup(context: RunContext, results: readonly ScenarioResult[]): Promise<{ summary?: CleanupSummary; problems: Diagnostic[] }> {
  const wrote = results.some((result) => result.steps.some((step) => step.request !== undefined && step.request.method !== 'GET' && step.request.method !== 'HEAD'))
  if (!wrote) {
    context.ledger?.record({ type: 'closed' })
    return { problems: [] }
  }
  const before = context.ledger ? readOpenWork(context.ledger.file) : undefined
  const deletedUrls = new Set(before?.deletedUrls ?? [])
  // Only a POST can have created something whose Location never reached us.
  const posted = results.some((result) => result.steps.some((step) => step.request?.method === 'POST'))
  const known = { deleted: deletedUrls, leftBehind: new Set(before?.counts.leftBehind.map((item) => item.url) ?? []) }
  const sweep = posted ? await sweepMarked(context, ['token', 'other-token'], known) : { found: [], leftBehind: [], problems: [] }
  const problems: Diagnostic[] = sweep.problems.map((message) => ({ code: 'E_CLEANUP', kind: 'error', message }))
  for (const item of sweep.found) {
    if (deletedUrls.has(item.url)) problems.push({ code: 'E_CLEANUP', kind: 'error', message: `the end-of-run sweep found ${item.url} again: ${item.reason}` })
  }
  if (!context.ledger) return { problems: [...problems, ...leftBehindProblems(sweep.leftBehind)] }
  const open = readOpenWork(context.ledger.file)
  const counts = open.counts
  problems.push(...leftBehindProblems(counts.leftBehind))
  for (const item of counts.notProvenOurs) problems.push({ code: 'E_CLEANUP', kind: 'error', message: `not proven ours, left in place (nothing was sent to it): ${item.url}: ${item.reason}`, hint: 'look at it on the account: the run could not show it created it' })
  const owes = open.toDelete.length > 0 || open.toRestore.length > 0
  if (!owes) context.ledger.record({ type: 'closed' })
  const summary: CleanupSummary = {
    created: counts.created,
    deleted: counts.deleted,
    changed: counts.changed,
    restored: counts.restored,
    swept: sweep.found.length,
    ...(sweep.found.length > 0 ? { found: sweep.found } : {}),
    ...(counts.notProvenOurs.length > 0 ? { notProvenOurs: counts.notProvenOurs } : {}),
    ...(counts.leftBehind.length > 0 ? { leftBehind: counts.leftBehind } : {}),
    ...(owes ? { openLedger: context.ledger.file } : {}),
  }
  return { summary, problems }
}

function leftBehindProblems(items: readonly CleanupItem[]): Diagnostic[] {
  return items.map((item) => ({ code: 'E_CLEANUP', kind: 'error', message: `left behind: ${item.url}: ${item.reason}`, hint: 'run `fitconform cleanup --base-url …` to try again' }))
}

/** Each token flag not given, with how many selected scenarios it would have run. */
function missingTokens(plan: RunPlan): MissingToken[] {
  const counts = new Map<TokenRole, number>()
  for (const { missingRoles } of plan.skipped) for (const role of missingRoles ?? []) counts.set(role, (counts.get(role) ?? 0) + 1)
  return [...counts.entries()].map(([role, scenarios]) => ({ flag: `--${role}`, env: envVarOfRole(role), scenarios }))
}

/** Reported only when some step polled. */
function pollingSummary(context: RunContext): PollingSummary | undefined {
  const budget = context.polling
  if (!budget || (budget.spentMs === 0 && budget.cappedSteps === 0)) return undefined
  return { spentMs: Math.round(budget.spentMs), capMs: budget.capMs, cappedSteps: budget.cappedSteps }
}

function createRunValues(startedAt: Date): RunContext['run'] {
  const id = randomBytes(4).toString('hex')
  // 1980–1999: far enough back that no real account's recent history overlaps, and every server's date parser copes.
  const farYear = 1980 + (parseInt(id.slice(0, 4), 16) % 20)
  return { id, marker: `fitconform-run-${id}`, farYear, now: startedAt.getTime() }
}

function buildRunResult(scenarios: readonly ScenarioResult[], settings: Pick<ConformanceSettings, 'strict' | 'target'>, startedAt: Date, diagnostics: readonly Diagnostic[] = []): RunResult {
  const count = (status: ScenarioResult['status']): number => scenarios.filter((scenario) => scenario.status === status).length
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
    },
    scenarios,
    diagnostics: [...diagnostics, ...cleanupDiagnostics(scenarios)],
  }
}

function cleanupDiagnostics(scenarios: readonly ScenarioResult[]): Diagnostic[] {
  return scenarios.flatMap((scenario) =>
    scenario.cleanup
      .filter((step) => step.status === 'failed' || step.status === 'error')
      .map((step) => ({ code: 'E_CLEANUP' as const, kind: 'error' as const, message: `${scenario.id}: cleanup step "${step.name}" did not succeed; the account may need a manual look`, at: step.at })),
  )
}
