// One step of a scenario: wait if it says so, send it (step-polling.ts, fetch-pages.ts), hand its scenario what it
// created and deleted (step-resources.ts), capture, and record the request and answer its result shows.
// The verdict of each answer is shaped in step-verdict.ts.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Step } from '../../model/scenario.js'
import type { RecordedResponse, StepResult } from '../../model/result.js'
import { evaluateExpression, type Scope } from '../../expression/evaluate-expression.js'
import { curlLine } from '../http/curl-line.js'
import { evaluateChecks } from './evaluate-checks.js'
import type { IncomingResponse } from '../http/http-exchange.js'
import { isDeeperThan, MAX_RECORDED_DEPTH } from './json-depth.js'
import type { RunContext } from '../run-context.js'
import type { PreparedRequest } from '../http/send-request.js'
import { parkerOf, sendUntilChecksPass, type PollingBudget } from './step-polling.js'
import { registerResources, type ScenarioState } from './step-resources.js'
import { addRejectionHint, pollingCapNote, rulesOf, statusOf } from './step-verdict.js'

const MAX_RECORDED_BODY = 64 * 1024

export interface StepOutcome {
  readonly result: StepResult
  /** Set when a skipIf held: the scenario stops here as skipped, with this reason. */
  readonly skipReason?: string
}

/**
 * Runs one step: request (with paging and polling), checks, captures. Never throws: whatever goes wrong is the
 * step's result. `eventually` resends spend from `polling`, the run's budget (absent: no cap).
 */
export async function runStep(
  step: Step,
  state: ScenarioState,
  context: RunContext,
  polling?: PollingBudget,
): Promise<StepOutcome> {
  const started = performance.now()
  try {
    return await attemptStep(step, state, context, polling)
  } catch (error) {
    // A bug of ours must cost one step, not the run: cleanup and the other scenarios still go ahead.
    const message = `fitconform failed on this step: ${error instanceof Error ? error.message : String(error)}`
    return {
      result: context.redact({
        name: step.name,
        at: step.at,
        durationMs: performance.now() - started,
        status: 'error',
        assertions: [],
        attempts: 1,
        rules: rulesOf(step),
        error: {
          code: 'E_INTERNAL',
          kind: 'internal',
          message,
          at: step.at,
          hint: 'this is a bug of fitconform: please report it',
        },
      }),
    }
  }
}

async function attemptStep(
  step: Step,
  state: ScenarioState,
  context: RunContext,
  polling: PollingBudget | undefined,
): Promise<StepOutcome> {
  const started = performance.now()
  const finish = (fields: Omit<StepResult, 'name' | 'at' | 'durationMs'>, skipReason?: string): StepOutcome => ({
    result: context.redact({
      name: step.name,
      at: step.at,
      durationMs: performance.now() - started,
      ...fields,
      rules: rulesOf(step),
    }),
    skipReason,
  })
  const waitMs = step.waitMs
  if (waitMs)
    await parkerOf(context)(() => sleep(waitMs, undefined, { signal: context.interrupted }).catch(() => undefined))
  const variables: Scope = { ...state.variables, run: context.run, config: context.config }
  if (!step.request) {
    const assertions = evaluateChecks(step.expect.checks, variables)
    capture(step, variables, state)
    return finish({ status: statusOf(assertions), assertions, attempts: 1 })
  }

  const { outcome, attempts, clockResends, capped, judged } = await sendUntilChecksPass(
    step,
    variables,
    context,
    polling,
  )
  const resent = clockResends > 0 ? { clockResends } : {}
  if ('notSent' in outcome)
    return finish({ status: 'skipped', assertions: [], attempts: 0, skipReason: outcome.notSent }, outcome.notSent)
  // A body past --max-body-bytes, a server that stayed busy (busy-retry.ts), or a write the ownership
  // gate refused (never sent) blocks the step: not judged, no rule of the server's fails for it (the
  // spec sets no size and no rate limit, §8).
  if ('error' in outcome) {
    const blocked =
      outcome.error.code === 'E_BODY_TOO_LARGE' ||
      outcome.error.code === 'E_SERVER_BUSY' ||
      outcome.error.code === 'E_WRITE_REFUSED'
    return finish({
      status: blocked ? 'blocked' : 'error',
      assertions: [],
      attempts,
      ...resent,
      error: outcome.error,
      ...(blocked ? { block: { reason: outcome.error.message, byRules: [] } } : {}),
      ...(outcome.prepared ? recordRequest(outcome.prepared, step) : {}),
    })
  }

  const { first, shown, pages } = outcome
  const assertions = capped ? [...outcome.assertions, pollingCapNote(step, polling?.capMs ?? 0)] : outcome.assertions
  const scope = { ...variables, ...first.scope }
  // Skip conditions and captures read the answer the checks judged: with `eventually`, the last one sent.
  const judgedScope = judged ? { ...variables, ...judged.scope } : scope
  // A skip condition holds only where it was judged: one that judged nothing (a list the answer lacks) skips nothing.
  const skip =
    step.skipIf &&
    step.skipIf.checks.length > 0 &&
    evaluateChecks(step.skipIf.checks, judgedScope).every((check) => check.ok && !check.notJudged)
      ? step.skipIf.reason
      : undefined
  capture(step, judgedScope, state)
  if (step.follow) {
    state.variables['pages'] = pages
    for (const [name, values] of Object.entries(outcome.collected)) state.variables[name] = values
  }
  const proof = await registerResources(step, scope, first, state, context)
  const withHint = addRejectionHint(
    step,
    { status: shown.response.status, sentBody: shown.prepared.outgoing.body !== undefined },
    [...assertions, ...proof],
  )
  return finish(
    {
      // A skipIf that holds wins: the server took a branch the scenario cannot judge (e.g. it refuses an empty edit).
      status: skip ? 'skipped' : statusOf(withHint),
      assertions: withHint,
      attempts,
      ...resent,
      ...(step.follow ? { pages } : {}),
      ...recordRequest(shown.prepared, step),
      response: recordResponse(shown.response, shown.scope, context),
    },
    skip,
  )
}

function capture(step: Step, scope: Scope, state: ScenarioState): void {
  for (const [name, expression] of Object.entries(step.capture))
    state.variables[name] = evaluateExpression(expression, scope)
}

function recordRequest(prepared: PreparedRequest, step: Step): Pick<StepResult, 'request' | 'curl'> {
  const { method, url, headers, body } = prepared.outgoing
  return {
    request: { method, url, headers, body },
    curl: curlLine(prepared.outgoing, step.request!.auth),
  }
}

function recordResponse(response: IncomingResponse, scope: Scope, context: RunContext): RecordedResponse {
  const truncated = response.body.length > MAX_RECORDED_BODY
  // Redact the whole text before cutting it, so a token that straddles the cut cannot leave a prefix behind.
  // A body nested too deep for the reporters' recursive walks is kept as its text.
  const structured = scope['body'] !== undefined && !truncated && !isDeeperThan(scope['body'], MAX_RECORDED_DEPTH)
  const body = structured
    ? scope['body']
    : response.body.length > 0
      ? context.redact(String(scope['bodyText'])).slice(0, MAX_RECORDED_BODY)
      : undefined
  return {
    status: response.status,
    headers: response.headers,
    body,
    bodyBytes: response.wireBytes,
    ...(truncated ? { truncated } : {}),
    ...(response.resent ? { resent: response.resent } : {}),
  }
}
