import type { ReportedRunResult, ReportedScenarioResult } from '../../model/reported-result.js'
import type { RunResult, ScenarioResult } from '../../model/result.js'
import { computeRuleVerdicts } from '../../model/rule-verdicts.js'
import type { Rule } from '../../model/scenario.js'
import { applyKnownFailures, markScenario } from '../../known-failures/apply-known-failures.js'
import type { KnownFailure } from '../../known-failures/known-failures.js'
import { maskPersonalData, maskScenarioPersonalData } from './personal-data.js'

/*
 * The finalize stage, between execute and report: known failures applied, rules judged, personal
 * data masked, once. Reporters and the exit code read only what comes out of here, so that no two
 * of them can tell the same run differently.
 */

export interface FinalizeOptions {
  readonly knownFailures: readonly KnownFailure[]
  /** `--show-personal-data`: leave profile texts and GPS positions as the server sent them. */
  readonly showPersonalData: boolean
  /** The rule catalogue (suites/rules.yaml): every server rule gets a verdict, judged or not. */
  readonly rules: readonly Rule[]
}

export interface Finalizer {
  /** One scenario as it ends, for progress: known failures decidable from it alone, masking (done when its evidence is read). */
  scenario(result: ScenarioResult): ReportedScenarioResult
  /** The whole run, once, at the end. */
  run(result: RunResult): ReportedRunResult
}

export function createFinalizer(options: FinalizeOptions): Finalizer {
  return {
    scenario: (result) => {
      const marked = markScenario(result, options.knownFailures)
      return options.showPersonalData ? marked : maskScenarioPersonalData(marked)
    },
    run: (result) => finalizeRun(result, options),
  }
}

/** `(RunResult, known failures, masking) → ReportedRunResult`; pure. */
export function finalizeRun(result: RunResult, options: FinalizeOptions): ReportedRunResult {
  const applied = applyKnownFailures(result, options.knownFailures)
  // Verdicts are judged before masking: masking changes values, never whether a check passed.
  const rules = computeRuleVerdicts(applied.scenarios, options.rules)
  const reported: ReportedRunResult = {
    ...result,
    scenarios: applied.scenarios,
    summary: applied.summary,
    knownFailures: applied.knownFailures,
    rules,
  }
  return options.showPersonalData ? reported : maskPersonalData(reported)
}
