import type { NotTested } from './result.js'
import type { Diagnostic } from './diagnostic.js'
import type { ReportedRunResult, ReportedScenarioResult } from './reported-result.js'
import type { StepResult } from './result.js'
import type { Rule } from './scenario.js'

type Awaitable<T> = T | Promise<T>

/** What a reporter learns before the first request: enough to show progress and group by section. */
export interface RunPlanView {
  readonly target: string
  readonly strict: boolean
  readonly scenarios: readonly ScenarioView[]
  readonly rules: readonly Rule[]
  /** Token flags not given, with how many selected scenarios each would have run (they are skipped). */
  readonly missingTokens?: readonly MissingToken[]
  /** What the preflight noticed without stopping the run (a role token refused with 401). */
  readonly notices?: readonly Diagnostic[]
  /** Set by `fitconform fuzz`: the scenarios are generated as it goes, so no count or rule coverage is known up front. */
  readonly generated?: boolean
}

/** A token flag not given and what that leaves untested (the run's result carries the same list as `notTested`). */
export type MissingToken = NotTested

export interface ScenarioView {
  readonly id: string
  readonly title: string
  readonly file: string
  readonly rules: readonly string[]
  readonly tags: readonly string[]
}

/** Every hook is optional; everything passed in is read-only data (safe to keep or serialise). */
export interface Reporter {
  /** Once, before any request is sent. */
  onRunStart?(plan: RunPlanView): Awaitable<void>
  onScenarioStart?(scenario: ScenarioView): Awaitable<void>
  onStepEnd?(step: StepResult, scenario: ScenarioView): Awaitable<void>
  onScenarioEnd?(result: ReportedScenarioResult): Awaitable<void>
  /** Load, internal and other reporters' errors; never thrown at a reporter. */
  onDiagnostic?(diagnostic: Diagnostic): Awaitable<void>
  /**
   * Once, at the end, with the finalized result (known failures applied, rules judged, personal data masked); file
   * reporters write here.
   */
  onRunEnd?(result: ReportedRunResult, plan: RunPlanView): Awaitable<void>
  /** False for file-only reporters, so the CLI can add the console reporter. */
  printsToStdout?(): boolean
  /** The files this reporter wrote, once onRunEnd is done: the run ends by naming every one. */
  outputFiles?(): readonly string[]
}

/** Where terminal reporters write: injected so tests never touch process.stdout. */
export interface Screen {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly colors: boolean
  readonly isTTY: boolean
  readonly width: number
}
