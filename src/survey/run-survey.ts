// Runs the account survey (src/spec/survey/) inside a conformance run: lends it a reader over the
// run's HTTP client and tokens, and hands each result, redacted, to the reporters as it ends. It runs
// before any scenario, so it judges the account as it was.
import type { ScenarioResult } from '../model/result.js'
import type { RunContext } from '../execute/run-context.js'
import { surveyAccount, type SurveySettings } from '../spec/survey/survey-account.js'
import { surveySend } from './survey-http.js'

export interface SurveyEvents {
  /** Called as each check class ends, in order. */
  readonly onScenarioEnd?: (result: ScenarioResult) => Promise<void> | void
}

export async function runSurvey(
  context: RunContext,
  settings: SurveySettings,
  events: SurveyEvents = {},
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = []
  const reader = {
    send: (request: Parameters<typeof surveySend>[1]) => surveySend(context, request),
    hasToken: (role: keyof RunContext['tokens']) => Boolean(context.tokens[role]),
    interrupted: context.interrupted,
  }
  await surveyAccount(reader, settings, async (result) => {
    const redacted = context.redact(result)
    results.push(redacted)
    await events.onScenarioEnd?.(redacted)
  })
  return results
}
