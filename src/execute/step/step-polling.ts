// A step sent until its answer can be judged: once the server's clock has moved past a date
// (untilServerDateAfter), and with `eventually` again while only its checks fail, within the run's
// polling budget.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Step } from '../../model/scenario.js'
import type { Scope } from '../../expression/evaluate-expression.js'
import { fetchPages, type Exchange, type PagesOutcome } from './fetch-pages.js'
import type { RunContext } from '../run-context.js'
import { clockInstant, sendUntilServerDateAfter } from './server-clock-wait.js'
import { isJudgedOnFirstAnswer, statusOf } from './step-verdict.js'

/**
 * How long all `eventually` steps of a run have kept resending, against its cap (--max-polling). The run
 * session owns it and hands it to the step loop; the steps of every scenario spend from the one budget.
 */
export interface PollingBudget {
  spentMs: number
  readonly capMs: number
  cappedSteps: number
}

export function createPollingBudget(capMs: number): PollingBudget {
  return { spentMs: 0, capMs, cappedSteps: 0 }
}

/** How a clock wait runs: with the scenario's concurrency slot given up when the pool allows it. */
export function parkerOf(context: RunContext): NonNullable<RunContext['park']> {
  return context.park ?? ((wait) => wait())
}

/**
 * Sends the step; with `eventually`, sends again while only its `checks` fail (a feed catching up
 * with a write). Status, media type and schema are judged on the first answer and never retried: a
 * wrong status does not become right by waiting. All steps of a run share one polling budget; absent: no cap.
 */
export async function sendUntilChecksPass(
  step: Step,
  variables: Scope,
  context: RunContext,
  budget: PollingBudget | undefined,
): Promise<{ outcome: PagesOutcome; attempts: number; clockResends: number; capped: boolean; judged?: Exchange }> {
  // With `untilServerDateAfter`, the first answer is the one sent once the server's clock moved on.
  const afterDate = step.untilServerDateAfter
  const { outcome: firstOutcome, attempts: sent } =
    afterDate === undefined
      ? { outcome: await fetchPages(step, variables, context), attempts: 1 }
      : await parkerOf(context)(() =>
          sendUntilServerDateAfter(
            {
              send: () => fetchPages(step, variables, context),
              isFailure: (o) => !('first' in o),
              dateOf: (o) => (!('first' in o) ? undefined : o.first.response.headers['date']),
            },
            { afterMs: clockInstant(afterDate, variables), signal: context.interrupted },
          ),
        )
  const clockResends = sent - 1
  if (!('first' in firstOutcome) || !step.eventually)
    return { outcome: firstOutcome, attempts: 1, clockResends, capped: false }
  const judgedOnce = firstOutcome.assertions.filter(isJudgedOnFirstAnswer)
  const retryable = (outcome: Extract<PagesOutcome, { first: Exchange }>): boolean =>
    statusOf(outcome.assertions.filter((a) => !isJudgedOnFirstAnswer(a))) === 'failed'
  if (statusOf(judgedOnce) === 'failed' || !retryable(firstOutcome))
    return { outcome: firstOutcome, attempts: 1, clockResends, capped: false }
  const deadline = performance.now() + step.eventually.withinMs
  let outcome: PagesOutcome = firstOutcome
  let attempts = 1
  let capped = false
  while (
    'first' in outcome &&
    retryable(outcome) &&
    performance.now() + step.eventually.everyMs <= deadline &&
    !context.interrupted.aborted
  ) {
    if (budget && budget.spentMs + step.eventually.everyMs > budget.capMs) {
      capped = true
      budget.cappedSteps++
      break
    }
    const waited = performance.now()
    await sleep(step.eventually.everyMs, undefined, { signal: context.interrupted }).catch(() => undefined)
    attempts++
    outcome = await fetchPages(step, variables, context)
    if (budget) budget.spentMs += performance.now() - waited
  }
  if (!('first' in outcome)) return { outcome, attempts, clockResends, capped }
  // The first answer's status, media type and schema verdicts stand; the checks are the last answer's, and so
  // is `judged`, the answer captures are taken from (what the checks passed on is what later steps use).
  return {
    outcome: {
      ...outcome,
      first: firstOutcome.first,
      assertions: [...judgedOnce, ...outcome.assertions.filter((a) => !isJudgedOnFirstAnswer(a))],
    },
    attempts,
    clockResends,
    capped,
    judged: outcome.first,
  }
}
