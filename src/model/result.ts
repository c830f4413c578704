import type { Diagnostic, SourceRef } from './diagnostic.js'
import type { MatrixCell, MatrixRow } from './scenario.js'

/** Bumped when a field of results.json changes meaning or disappears; adding fields keeps it. */
export const RESULT_SCHEMA_VERSION = 1

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  /** Lower-case names; secrets already redacted. */
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

export interface RecordedResponse {
  readonly status: number
  /** Lower-case names; a repeated header's values joined with ", " (set-cookie with "\n"). */
  readonly headers: Readonly<Record<string, string>>
  /** Parsed JSON when the body was JSON, else the text (truncated); absent when there was no body. */
  readonly body?: unknown
  /** Byte length of the body as received. */
  readonly bodyBytes: number
  readonly truncated?: boolean
  /** Set when this answer came to the request's second send, on a fresh connection: why it was sent twice. */
  readonly resent?: string
}

export interface AssertionResult {
  readonly ok: boolean
  /** A failed warning does not fail the scenario; irregularities are warnings unless --strict. */
  readonly severity: 'failure' | 'warning'
  readonly irregularity?: boolean
  readonly rules: readonly string[]
  /** What was checked, e.g. `body.items[3].has_map` or `headers.last-modified`. */
  readonly target: string
  readonly matcher: string
  readonly expected?: unknown
  readonly actual?: unknown
  readonly message: string
  readonly at?: SourceRef
  /** Set when the check's `when` did not hold: it passed without judging, so its rules are not judged by it either. */
  readonly notJudged?: true
}

/**
 * `blocked`: the step was not judged (an earlier step of its scenario failed, or its answer could not be read); its
 * rules are not judged either.
 */
export type StepStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'blocked'

/** Why a step was not judged. */
export interface StepBlock {
  /** One sentence, e.g. `step 1 "create an activity" failed`. */
  readonly reason: string
  /** The rules whose failed checks stopped the scenario here; empty when no rule did (a transport error, a body over the size cap). */
  readonly byRules: readonly string[]
}

export interface StepResult {
  readonly name: string
  readonly at: SourceRef
  readonly status: StepStatus
  readonly durationMs: number
  readonly request?: RecordedRequest
  readonly response?: RecordedResponse
  readonly assertions: readonly AssertionResult[]
  /** Transport problems, timeouts, undefined variables: the step could not be judged. */
  readonly error?: Diagnostic
  /** How many times an `eventually` step was sent before it passed (1 = first try). */
  readonly attempts: number
  /** Resends of an `untilServerDateAfter` step while the server's `Date` was not yet later than the step's date (before `attempts`). */
  readonly clockResends?: number
  /** Pages fetched by a `follow` step. */
  readonly pages?: number
  /** A ready-to-run reproduction, token replaced by $FITCONFORM_TOKEN. */
  readonly curl?: string
  /** The permission-matrix cell the step belongs to. */
  readonly cell?: MatrixCell
  /** Why a skipped step was not sent (a matrix cell that is open, or whose token was not given). */
  readonly skipReason?: string
  /** The rules this step's checks are filed under: what it judges, and what is not judged when it is blocked. */
  readonly rules?: readonly string[]
  /** Set when status is `blocked`. */
  readonly block?: StepBlock
}

export type ScenarioStatus = 'passed' | 'failed' | 'skipped'

export interface ScenarioResult {
  readonly id: string
  readonly title: string
  readonly file: string
  readonly at: SourceRef
  readonly rules: readonly string[]
  readonly tags: readonly string[]
  readonly status: ScenarioStatus
  readonly skipReason?: string
  readonly durationMs: number
  readonly warnings: readonly AssertionResult[]
  readonly steps: readonly StepResult[]
  readonly cleanup: readonly StepResult[]
  /** The permission-matrix row this scenario was generated from (the HTML report draws the grid). */
  readonly matrixRow?: MatrixRow
}

export interface RunSummary {
  readonly total: number
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  readonly warnings: number
  /** Permission-matrix cells not sent because their token was not given (inside scenarios that ran). */
  readonly skippedCells?: number
}

/** A token flag that was not given, and what the run therefore did not test. */
export interface NotTested {
  /** `--other-token` */
  readonly flag: string
  /** `FITCONFORM_OTHER_TOKEN` */
  readonly env: string
  /** Scenarios skipped because this token was not given. */
  readonly scenarios: number
  /** Permission-matrix cells skipped because this token was not given (each a route tried with it). */
  readonly cells: number
  /** Rules only those scenarios and cells would have judged: untested in this run. */
  readonly rules: readonly string[]
}

/** What skipped, when --fail-on-skip fails the run for it. */
export interface SkipCount {
  readonly scenarios: number
  readonly cells: number
}

/** What the run changed on the account and what it undid (the ledger's account). */
export interface CleanupSummary {
  readonly created: number
  readonly deleted: number
  /** Values changed in place (e.g. the profile's athlete_type) … */
  readonly changed: number
  /** … and how many of those were set back. */
  readonly restored: number
  /** Activities found by the run's marker at the end of the run. */
  readonly swept: number
  /** Each activity the marker sweep found, with why it was still there. */
  readonly found?: readonly CleanupItem[]
  /** Activities cleanup left in place because a read did not prove them the run's own (nothing was sent to them). */
  readonly notProvenOurs?: readonly CleanupItem[]
  /** Activities the server said it deleted that a read still found. */
  readonly leftBehind?: readonly CleanupItem[]
  /** Each profile field, per user, that is still not as the run found it. */
  readonly notRestored?: readonly string[]
  /** What the run did to stay off data that was there before it (a far year that held activities). */
  readonly notes?: readonly string[]
  /** The ledger file, while it still owes work (`fitconform cleanup` finishes it). */
  readonly openLedger?: string
}

export interface CleanupItem {
  readonly url: string
  readonly reason: string
}

/** How long `eventually` steps kept resending, against the run's cap (--max-polling). */
export interface PollingSummary {
  readonly spentMs: number
  readonly capMs: number
  /** Steps that stopped resending because the cap was used up. */
  readonly cappedSteps: number
}

export interface RunResult {
  readonly schemaVersion: number
  readonly tool: { readonly name: 'fitconform'; readonly version: string }
  readonly startedAt: string
  readonly durationMs: number
  /** The server under test; `embedded reference server` when none was given. */
  readonly target: string
  readonly strict: boolean
  readonly summary: RunSummary
  readonly scenarios: readonly ScenarioResult[]
  /** Problems of the run itself (reporters, cleanup, internal). */
  readonly diagnostics: readonly Diagnostic[]
  readonly cleanup?: CleanupSummary
  readonly polling?: PollingSummary
  /** Each token flag not given, with the scenarios, cells and rules it left untested. */
  readonly notTested?: readonly NotTested[]
  /** What the preflight noticed without stopping the run, e.g. a revoked or limited token refused with 401 (a mistyped flag?). */
  readonly notices?: readonly Diagnostic[]
  /** Set when --fail-on-skip fails this run: what was skipped. */
  readonly failedOnSkip?: SkipCount
  readonly busy?: BusySummary
}

/** How often the server answered 429/503 (busy-retry.ts); present when it did. */
export interface BusySummary {
  /** Busy answers received, resends included. */
  readonly answers: number
  /** Time spent waiting before resends. */
  readonly waitedMs: number
  /** The run's cap on that time. */
  readonly capMs: number
  /** Requests still busy when their budget ran out: their steps were not judged. */
  readonly stayedBusy: number
}
