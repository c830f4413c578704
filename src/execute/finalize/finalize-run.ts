import type { ReportedRunResult, ReportedScenarioResult } from '../../model/reported-result.js'
import type { RunResult, ScenarioResult } from '../../model/result.js'
import { computeRuleVerdicts } from '../../model/rule-verdicts.js'
import type { Rule } from '../../model/scenario.js'
import { applyKnownFailures, markScenario } from '../../known-failures/apply-known-failures.js'
import type { KnownFailure } from '../../known-failures/known-failures.js'
import { createRunMasking, type RunMasking } from './personal-data.js'

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
  // One masking for the run: the end reuses what each scenario's pass found (personal-data.ts).
  const masking = options.showPersonalData ? undefined : createRunMasking()
  return {
    // Masked, then marked: marking adds scenario-level fields only, which masking does not read or change.
    scenario: (result) => markScenario(masking ? masking.scenario(result) : result, options.knownFailures),
    run: (result) => finalizeRun(result, options, masking),
  }
}

/** `(RunResult, known failures, masking) → ReportedRunResult`; pure. `masking`: the run's, which saw its scenarios end. */
export function finalizeRun(
  result: RunResult,
  options: FinalizeOptions,
  masking: RunMasking | undefined = options.showPersonalData ? undefined : createRunMasking(),
): ReportedRunResult {
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
  return masking ? masking.run(reported) : reported
}
