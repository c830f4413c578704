import { isFailingRun, type ReportedRunResult } from '../model/reported-result.js'
import { EXIT } from '../shared/exit-codes.js'
import type { SkipCount } from '../model/result.js'
import { countSkips } from '../model/skip-count.js'

export interface ExitCodeOptions {
  /** Errors the reporters raised (a reporter that broke fails the run). */
  readonly reporterErrors: number
  /** SIGINT/SIGTERM stopped the run early. */
  readonly interrupted?: boolean
  /** --fail-on-skip */
  readonly failOnSkip?: boolean
}

export type { SkipCount } from '../model/result.js'

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
    const skips = countSkips(result.scenarios)
    if (skips.scenarios > 0 || skips.cells > 0) return { code: EXIT.failed, failedOnSkip: skips }
  }
  return { code: EXIT.ok }
}
