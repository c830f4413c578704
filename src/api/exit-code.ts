import { isFailingRun, type ReportedRunResult } from '../model/reported-result.js'
import { EXIT } from '../shared/exit-codes.js'

export interface ExitCodeOptions {
  /** Errors the reporters raised (a reporter that broke fails the run). */
  readonly reporterErrors: number
  /** SIGINT/SIGTERM stopped the run early. */
  readonly interrupted?: boolean
  /** --fail-on-skip */
  readonly failOnSkip?: boolean
}

/** What a run skipped: whole scenarios, and permission-matrix cells whose token was not given. */
export interface SkipCount {
  readonly scenarios: number
  readonly cells: number
}

export interface RunExit {
  readonly code: number
  /** Set when --fail-on-skip alone failed the run: what was skipped, for the message. */
  readonly failedOnSkip?: SkipCount
}

/** The exit code of a run that ran, from its finalized result: one rule for `fitconform run` and the library's run(). */
export function exitOfRun(result: ReportedRunResult, options: ExitCodeOptions): RunExit {
  if (options.interrupted) return { code: EXIT.interrupted }
  if (isFailingRun(result) || options.reporterErrors > 0) return { code: EXIT.failed }
  if (options.failOnSkip) {
    const skips = countSkips(result)
    if (skips.scenarios > 0 || skips.cells > 0) return { code: EXIT.failed, failedOnSkip: skips }
  }
  return { code: EXIT.ok }
}

function countSkips(result: ReportedRunResult): SkipCount {
  // A permission-matrix cell whose token was not given is skipped alone, inside a scenario that runs.
  const cells = result.scenarios.flatMap((scenario) => scenario.steps).filter((step) => step.status === 'skipped' && step.cell && step.cell.open === undefined).length
  return { scenarios: result.summary.skipped, cells }
}
