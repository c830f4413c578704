import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Diagnostic } from '../model/diagnostic.js'
import type { AuthChoice, Step } from '../model/scenario.js'
import type { AssertionResult, RecordedResponse, StepResult } from '../model/result.js'
import { evaluateExpression, type Scope } from '../expression/evaluate-expression.js'
import { UndefinedPlaceholderError } from '../expression/render-template.js'
import { curlLine } from './curl-line.js'
import { evaluateChecks } from './evaluate-checks.js'
import { isDeeperThan, MAX_RECORDED_DEPTH, recordable } from './json-depth.js'
import type { IncomingResponse } from './http-exchange.js'
import type { RunContext } from './run-context.js'
import { RULE } from '../spec/rule-ids.js'
import { checkSchema } from './schema-check.js'
import { clockInstant, sendUntilServerDateAfter } from './server-clock-wait.js'
import { prepareRequest, responseScope, type PreparedRequest } from './send-request.js'
import { resolveUrl } from './resolve-url.js'
import { proveCreated } from './ownership.js'
import { isProfileUrlUnder } from '../spec/paths.js'
import { transportDiagnostic } from './transport-error.js'

const MAX_RECORDED_BODY = 64 * 1024

export interface CreatedResource {
  readonly url: string
  readonly auth: AuthChoice
  /** The create's body carried the run marker: a read without it disproves the create, not just ownership. */
  readonly markerSent: boolean
  deleted: boolean
}

/** What a scenario carries from step to step. */
export interface ScenarioState {
  readonly scenarioId: string
  readonly variables: Record<string, unknown>
  readonly created: CreatedResource[]
}

export interface StepOutcome {
  readonly result: StepResult
  /** Set when a skipIf held: the scenario stops here as skipped, with this reason. */
  readonly skipReason?: string
}

interface Exchange {
  readonly prepared: PreparedRequest
  readonly response: IncomingResponse
  readonly scope: Scope
  readonly assertions: AssertionResult[]
}

/** Runs one step: request (with paging and polling), checks, captures. Never throws: whatever goes wrong is the step's result. */
export async function runStep(step: Step, state: ScenarioState, context: RunContext): Promise<StepOutcome> {
  const started = performance.now()
  try {
    return await attemptStep(step, state, context)
  } catch (error) {
    // A bug of ours must cost one step, not the run: cleanup and the other scenarios still go ahead.
    const message = `fitconform failed on this step: ${error instanceof Error ? error.message : String(error)}`
    return {
      result: context.redact({ name: step.name, at: step.at, durationMs: performance.now() - started, status: 'error', assertions: [], attempts: 1, rules: rulesOf(step), error: { code: 'E_INTERNAL', kind: 'internal', message, at: step.at, hint: 'this is a bug of fitconform: please report it' } }),
    }
  }
}

async function attemptStep(step: Step, state: ScenarioState, context: RunContext): Promise<StepOutcome> {
  const started = performance.now()
  const finish = (fields: Omit<StepResult, 'name' | 'at' | 'durationMs'>, skipReason?: string): StepOutcome => ({
    result: context.redact({ name: step.name, at: step.at, durationMs: performance.now() - started, ...fields, rules: rulesOf(step) }),
    ...(skipReason ? { skipReason } : {}),
  })
  const waitMs = step.waitMs
  if (waitMs) await parkerOf(context)(() => sleep(waitMs, undefined, { signal: context.interrupted }).catch(() => undefined))
  const variables: Scope = { ...state.variables, run: context.run, config: context.config }
  if (!step.request) {
    const assertions = evaluateChecks(step.expect.checks, variables)
    capture(step, variables, state)
    return finish({ status: statusOf(assertions), assertions, attempts: 1 })
  }

  const { outcome, attempts, clockResends, capped } = await sendUntilChecksPass(step, variables, context)
  const resent = clockResends > 0 ? { clockResends } : {}
  if ('notSent' in outcome) return finish({ status: 'skipped', assertions: [], attempts: 0, skipReason: outcome.notSent }, outcome.notSent)
  // A body past --max-body-bytes, a server that stayed busy (busy-retry.ts), or a write the ownership
  // gate refused (never sent) blocks the step: not judged, no rule of the server's fails for it (the
  // spec sets no size and no rate limit, §8).
  if ('error' in outcome) {
    const blocked = outcome.error.code === 'E_BODY_TOO_LARGE' || outcome.error.code === 'E_SERVER_BUSY' || outcome.error.code === 'E_WRITE_REFUSED'
    return finish({ status: blocked ? 'blocked' : 'error', assertions: [], attempts, ...resent, error: outcome.error, ...(blocked ? { block: { reason: outcome.error.message, byRules: [] } } : {}), ...(outcome.prepared ? recordRequest(outcome.prepared, step) : {}) })
  }

  const { first, shown, pages } = outcome
  const assertions = capped ? [...outcome.assertions, pollingCapNote(step, context)] : outcome.assertions
  const scope = { ...variables, ...first.scope }
  const skip = step.skipIf && step.skipIf.checks.length > 0 && evaluateChecks(step.skipIf.checks, scope).every((check) => check.ok) ? step.skipIf.reason : undefined
  capture(step, scope, state)
  if (step.follow) {
    state.variables['pages'] = pages
    for (const [name, values] of Object.entries(outcome.collected)) state.variables[name] = values
  }
  const proof = await register(step, scope, first, state, context)
  const withHint = addRejectionHint(step, shown, [...assertions, ...proof])
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

/** How a clock wait runs: with the scenario's concurrency slot given up when the pool allows it. */
function parkerOf(context: RunContext): NonNullable<RunContext['park']> {
  return context.park ?? ((wait) => wait())
}

/**
 * Sends the step; with `eventually`, sends again while only its `checks` fail (a feed catching up
 * with a write). Status, media type and schema are judged on the first answer and never retried: a
 * wrong status does not become right by waiting. All steps of a run share one polling budget.
 */
async function sendUntilChecksPass(step: Step, variables: Scope, context: RunContext): Promise<{ outcome: PagesOutcome; attempts: number; clockResends: number; capped: boolean }> {
  // With `untilServerDateAfter`, the first answer is the one sent once the server's clock moved on.
  const afterDate = step.untilServerDateAfter
  const { outcome: firstOutcome, attempts: sent } = afterDate === undefined
    ? { outcome: await fetchPages(step, variables, context), attempts: 1 }
    : await parkerOf(context)(() => sendUntilServerDateAfter(
      { send: () => fetchPages(step, variables, context), isFailure: (o) => !('first' in o), dateOf: (o) => (!('first' in o) ? undefined : o.first.response.headers['date']) },
      { afterMs: clockInstant(afterDate, variables), signal: context.interrupted },
    ))
  const clockResends = sent - 1
  if (!('first' in firstOutcome) || !step.eventually) return { outcome: firstOutcome, attempts: 1, clockResends, capped: false }
  const judgedOnce = firstOutcome.assertions.filter(isJudgedOnFirstAnswer)
  const retryable = (outcome: Extract<PagesOutcome, { first: Exchange }>): boolean => statusOf(outcome.assertions.filter((a) => !isJudgedOnFirstAnswer(a))) === 'failed'
  if (statusOf(judgedOnce) === 'failed' || !retryable(firstOutcome)) return { outcome: firstOutcome, attempts: 1, clockResends, capped: false }
  const deadline = performance.now() + step.eventually.withinMs
  let outcome: PagesOutcome = firstOutcome
  let attempts = 1
  let capped = false
  const budget = context.polling
  while ('first' in outcome && retryable(outcome) && performance.now() + step.eventually.everyMs <= deadline && !context.interrupted.aborted) {
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
  // The first answer's status, media type and schema verdicts stand; the checks are the last answer's.
  return { outcome: { ...outcome, first: firstOutcome.first, assertions: [...judgedOnce, ...outcome.assertions.filter((a) => !isJudgedOnFirstAnswer(a))] }, attempts, clockResends, capped }
}

/**
 * Blame exactly within one answer: when its status is wrong, the answer is of another kind and its
 * other checks say nothing about their rules; when its body is not JSON, checks on the body say
 * nothing either. Those checks are left out (not judged) and the failure that stopped them says so.
 */
function judgeOnlyWhatTheAnswerCanTell(assertions: readonly AssertionResult[]): AssertionResult[] {
  const isFailure = (a: AssertionResult): boolean => !a.ok && a.severity === 'failure'
  const wrongStatus = assertions.find((a) => isFailure(a) && a.target === 'status')
  const notJson = assertions.find((a) => isFailure(a) && a.matcher === 'schema' && a.rules.includes(RULE.bodyIsJson))
  const blocker = wrongStatus ?? notJson
  if (!blocker) return [...assertions]
  const stopped = (a: AssertionResult): boolean => a !== blocker && (wrongStatus ? true : a.target === 'body' || a.target.startsWith('body.') || a.target.startsWith('body['))
  const left = assertions.filter((a) => stopped(a) && !a.ok)
  const note = left.length === 0 ? '' : ` (${left.length} other failed check${left.length === 1 ? '' : 's'} on this answer not judged: ${[...new Set(left.flatMap((a) => a.rules))].join(', ') || 'no rule'})`
  return assertions.filter((a) => !stopped(a)).map((a) => (a === blocker ? { ...a, message: a.message + note } : a))
}

/**
 * Checks on `body.…` fail when the body is not JSON at all; the fault is then that one (the rule a
 * schema check files it under), not the rules of every field the checks looked for.
 */
function blameBodyThatIsNotJson(assertions: readonly AssertionResult[], scope: Scope, step: Step): AssertionResult[] {
  const text = typeof scope['bodyText'] === 'string' ? scope['bodyText'] : ''
  const isBodyCheck = (a: AssertionResult): boolean => a.target.startsWith('body.') || a.target.startsWith('body[')
  const failedOnBody = assertions.filter((a) => !a.ok && a.severity === 'failure' && isBodyCheck(a))
  const reported = assertions.some((a) => !a.ok && a.rules.includes(RULE.bodyIsJson))
  if (scope['body'] !== undefined || text.trim() === '' || failedOnBody.length === 0 || reported) return [...assertions]
  const notJson: AssertionResult = { ok: false, severity: 'failure', rules: [RULE.bodyIsJson], target: 'body', matcher: 'schema', message: `the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`, at: failedOnBody[0]!.at ?? step.at }
  return [...assertions, notJson]
}

/** The rule a body that is not JSON breaks (schema-check.ts files it there). */

/** Expected and actual values travel into every report: too deep a value is replaced by a note. */
function keepRecordable(assertion: AssertionResult): AssertionResult {
  if (!('actual' in assertion) && !('expected' in assertion)) return assertion
  const actual = recordable(assertion.actual)
  const expected = recordable(assertion.expected)
  if (actual === assertion.actual && expected === assertion.expected) return assertion
  return { ...assertion, ...('actual' in assertion ? { actual } : {}), ...('expected' in assertion ? { expected } : {}) }
}

function isJudgedOnFirstAnswer(assertion: AssertionResult): boolean {
  return assertion.target === 'status' || assertion.target === 'headers.content-type' || assertion.matcher === 'schema'
}

function pollingCapNote(step: Step, context: RunContext): AssertionResult {
  const cap = context.polling?.capMs ?? 0
  return { ok: false, severity: 'warning', rules: [], target: 'eventually', matcher: 'eventually', message: `stopped resending: the run's polling budget (--max-polling ${Math.round(cap / 1000)} s) is used up; the last answer is judged`, at: step.at }
}

type PagesOutcome =
  | { error: Diagnostic; prepared?: PreparedRequest }
  /** The profile guard kept the request back: the step is skipped with this reason. */
  | { notSent: string }
  | { first: Exchange; shown: Exchange; assertions: AssertionResult[]; pages: number; collected: Record<string, unknown[]> }

/** One request, or with `follow` the walk over every page; checks apply to each page. */
async function fetchPages(step: Step, variables: Scope, context: RunContext): Promise<PagesOutcome> {
  const exchanges: Exchange[] = []
  const collected: Record<string, unknown[]> = Object.fromEntries(Object.keys(step.follow?.collect ?? {}).map((name) => [name, []]))
  let next: string | undefined
  const extra: AssertionResult[] = []
  do {
    let prepared: PreparedRequest
    try {
      prepared = prepareRequest(step.request!, variables, context, next)
    } catch (error) {
      if (error instanceof UndefinedPlaceholderError) {
        return { error: { code: 'E_TEMPLATE_UNDEFINED', kind: 'error', message: `${error.message}: an earlier step did not capture it`, at: step.at } }
      }
      // A URL taken from the server (Location, previous) that is not a URL: the server's fault, not a crash of ours.
      return { error: { code: 'E_BAD_URL', kind: 'error', message: `cannot build the request: ${(error as Error).message}`, at: step.at, hint: 'a link or Location the server sent earlier is not a valid URI reference' } }
    }
    const refused = context.ownership?.refusal(prepared.outgoing.method, prepared.outgoing.url)
    if (!refused && prepared.outgoing.method === 'PUT' && context.profiles && isProfileUrlUnder(prepared.outgoing.url, context.baseUrl)) {
      const notSent = await context.profiles.beforeWrite(context, step.request!.auth, prepared.outgoing.body)
      if (notSent) return { notSent }
    }
    if (refused) return { error: { code: 'E_WRITE_REFUSED', kind: 'error', message: `not sent: ${prepared.outgoing.method} ${prepared.outgoing.url}: ${refused}`, at: step.at, hint: 'nothing of the account was touched; see the create step\'s failure for why the activity is not proven the run\'s own' }, prepared }
    let response: IncomingResponse
    try {
      response = await context.client.send(prepared.outgoing)
    } catch (error) {
      return { error: { ...transportDiagnostic(error, prepared.outgoing.url, context.timeoutMs), at: step.at }, prepared }
    }
    const scope = { ...variables, ...responseScope(response, prepared.outgoing.url) }
    const pagePrefix = step.follow ? `page ${exchanges.length + 1}: ` : ''
    const judged = [...evaluateChecks(step.expect.checks, scope), ...(step.expect.schema ? await checkSchema(step.expect.schema, scope['body'], scope['bodyText'] as string, { strict: context.strict, signal: context.interrupted }) : [])]
    const assertions = judgeOnlyWhatTheAnswerCanTell(blameBodyThatIsNotJson(judged, scope, step))
      .map((assertion) => (pagePrefix ? { ...assertion, message: pagePrefix + assertion.message } : assertion))
      .map(keepRecordable)
    if (prepared.rebasedFrom) extra.push(rebaseWarning(prepared.rebasedFrom, prepared.outgoing.url, step, stepRules(step)))
    exchanges.push({ prepared, response, scope, assertions })
    if (!step.follow) break
    for (const [name, expression] of Object.entries(step.follow.collect)) {
      const value = evaluateExpression(expression, scope)
      // One by one: spreading a page of 300,000 items into push() passes the engine's argument limit.
      if (Array.isArray(value)) for (const item of value as unknown[]) collected[name]!.push(item)
      else if (value !== undefined) collected[name]!.push(value)
    }
    const link = evaluateExpression(step.follow.next, scope)
    next = typeof link === 'string' && link !== '' ? link : undefined
    if (next && exchanges.length >= step.follow.maxPages) {
      extra.push({ ok: false, severity: 'failure', rules: stepRules(step), target: step.follow.next, matcher: 'follow', message: `the feed had not ended after ${step.follow.maxPages} pages (the \`previous\` link kept coming)`, at: step.at })
      break
    }
  } while (next && !context.interrupted.aborted)
  const first = exchanges[0]!
  const shown = exchanges.find((exchange) => statusOf(exchange.assertions) === 'failed') ?? exchanges.at(-1)!
  const perPage = exchanges.map((exchange) => exchange.assertions)
  return { first, shown, assertions: [...(step.follow ? collapsePages(perPage) : perPage.flat()), ...extra], pages: exchanges.length, collected }
}

/** The same failed check on several pages is one failure naming the pages (`pages 1–4: …`), with the first page's values. */
function collapsePages(pages: readonly (readonly AssertionResult[])[]): AssertionResult[] {
  const kept: AssertionResult[] = []
  const repeats = new Map<string, { index: number; pages: number[] }>()
  pages.forEach((assertions, page) => {
    for (const assertion of assertions) {
      const unprefixed = assertion.message.replace(/^page \d+: /, '')
      const key = [assertion.ok, assertion.severity, assertion.rules.join(','), assertion.target.replace(/\[\d+\]/g, '[*]'), unprefixed].join('\u0000')
      const seen = repeats.get(key)
      if (seen && !assertion.ok) {
        seen.pages.push(page + 1)
        continue
      }
      repeats.set(key, { index: kept.length, pages: [page + 1] })
      kept.push(assertion)
    }
  })
  for (const { index, pages: on } of repeats.values()) {
    if (on.length < 2) continue
    const assertion = kept[index]!
    kept[index] = { ...assertion, message: `${on.length} pages (${on[0]}–${on.at(-1)}): ${assertion.message.replace(/^page \d+: /, '')}` }
  }
  return kept
}

function capture(step: Step, scope: Scope, state: ScenarioState): void {
  for (const [name, expression] of Object.entries(step.capture)) state.variables[name] = evaluateExpression(expression, scope)
}

/**
 * Remembers what this step created (deleted at the end) and what it deleted (never deleted twice).
 * A create's Location is read at once, before anything of the run writes to it: only a read showing
 * the run's marker and the create's start time admits it through the ownership gate. The checks this
 * returns go with the create step: the rule the read disproves, or a warning when it proved nothing.
 */
async function register(step: Step, scope: Scope, exchange: Exchange, state: ScenarioState, context: RunContext): Promise<AssertionResult[]> {
  const request = step.request!
  if (request.method === 'DELETE' && exchange.response.status >= 200 && exchange.response.status < 300) {
    for (const resource of state.created) if (resource.url === exchange.prepared.outgoing.url) resource.deleted = true
    context.ledger?.record({ type: 'deleted', url: exchange.prepared.outgoing.url })
  }
  if (!step.creates) return []
  const location = evaluateExpression(step.creates, scope)
  if (typeof location !== 'string' || location === '') return []
  let url: string
  try {
    url = resolveUrl(location, context.baseUrl).url
  } catch {
    return [] // a Location that is not even a URI reference was already reported by the step's checks
  }
  const sentBody = exchange.prepared.outgoing.body
  const markerSent = context.run.marker !== '' && (sentBody?.includes(context.run.marker) ?? false)
  state.created.push({ url, auth: request.auth, markerSent, deleted: false })
  context.ledger?.record({ type: 'created', url, role: request.auth, scenario: state.scenarioId })
  if (!context.ownership) return []
  const startTime = sentStartTime(sentBody)
  const proof = await proveCreated(context, url, request.auth, { markerSent, ...(startTime !== undefined ? { startTime } : {}) })
  if (proof.kind === 'proven') {
    context.ownership.admit(proof.url)
    return []
  }
  const message = `the Location ${url} is not proven this create's activity, so nothing of the run will write to it: ${proof.reason}`
  if (proof.kind === 'disproven' && proof.rule) return [{ ok: false, severity: 'failure', rules: [proof.rule], target: 'headers.location', matcher: 'ownership', message, at: step.at }]
  return [{ ok: false, severity: 'warning', rules: [], target: 'headers.location', matcher: 'ownership', message, at: step.at }]
}

/** The `start_time` a create's JSON body sent, if any. */
function sentStartTime(body: string | undefined): string | undefined {
  if (body === undefined) return undefined
  try {
    const parsed = JSON.parse(body) as { start_time?: unknown } | null
    return typeof parsed?.start_time === 'string' ? parsed.start_time : undefined
  } catch {
    return undefined
  }
}

function addRejectionHint(step: Step, exchange: Exchange, assertions: AssertionResult[]): AssertionResult[] {
  const status = exchange.response.status
  const sentBody = exchange.prepared.outgoing.body !== undefined
  if (!step.onRejected || !sentBody || status < 400 || status >= 500 || statusOf(assertions) === 'passed') return assertions
  const hint = ` — the server rejected the suite's own request body (${status}): ${step.onRejected}`
  let added = false
  return assertions.map((assertion) => {
    if (added || assertion.ok || assertion.severity !== 'failure') return assertion
    added = true
    return { ...assertion, message: assertion.message + hint }
  })
}

/** Every rule the step's checks and schema are filed under: what the step judges. */
export function rulesOf(step: Step): string[] {
  const own = [...step.expect.checks.flatMap((check) => check.rules), ...(step.expect.schema?.rules ?? [])]
  return [...new Set([...own, ...(step.parallel ?? []).flatMap((branch) => rulesOf(branch.step))])]
}

/** The rules a step's own checks are filed under (the step's `rule`, or the scenario's). */
function stepRules(step: Step): readonly string[] {
  return step.expect.checks[0]?.rules ?? step.expect.schema?.rules ?? []
}

function rebaseWarning(from: string, to: string, step: Step, rules: readonly string[]): AssertionResult {
  return {
    ok: false,
    severity: 'warning',
    rules,
    target: 'url',
    matcher: 'sameOrigin',
    message: `the server linked to another origin (${new URL(from).origin}); the request went to ${new URL(to).origin} instead so the token never leaves the server under test`,
    at: step.at,
  }
}

function recordRequest(prepared: PreparedRequest, step: Step): Pick<StepResult, 'request' | 'curl'> {
  const { method, url, headers, body } = prepared.outgoing
  return { request: { method, url, headers, ...(body !== undefined ? { body } : {}) }, curl: curlLine(prepared.outgoing, step.request!.auth) }
}

function recordResponse(response: IncomingResponse, scope: Scope, context: RunContext): RecordedResponse {
  const truncated = response.body.length > MAX_RECORDED_BODY
  // Redact the whole text before cutting it, so a token that straddles the cut cannot leave a prefix behind.
  // A body nested too deep for the reporters' recursive walks is kept as its text.
  const structured = scope['body'] !== undefined && !truncated && !isDeeperThan(scope['body'], MAX_RECORDED_DEPTH)
  const body = structured ? scope['body'] : response.body.length > 0 ? context.redact(String(scope['bodyText'])).slice(0, MAX_RECORDED_BODY) : undefined
  return { status: response.status, headers: response.headers, ...(body !== undefined ? { body } : {}), bodyBytes: response.wireBytes, ...(truncated ? { truncated } : {}) }
}

function statusOf(assertions: readonly AssertionResult[]): 'passed' | 'failed' {
  return assertions.some((assertion) => !assertion.ok && assertion.severity === 'failure') ? 'failed' : 'passed'
}
