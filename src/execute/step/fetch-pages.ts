// A step's request sent once, or with `follow` once a page over the feed's links; each answer judged
// (step-verdict.ts). What the ownership gate refuses or the profile guard holds back is not sent.
import type { Diagnostic } from '../../model/diagnostic.js'
import type { Step } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import { evaluateExpression, type Scope } from '../../expression/evaluate-expression.js'
import { UndefinedPlaceholderError } from '../../expression/render-template.js'
import { isProfileUrlUnder } from '../../spec/paths.js'
import { evaluateChecks } from './evaluate-checks.js'
import type { IncomingResponse } from '../http/http-exchange.js'
import type { RunContext } from '../run-context.js'
import { checkSchema } from './schema-check.js'
import { prepareRequest, responseScope, type PreparedRequest } from '../http/send-request.js'
import { collapsePages, judgeAnswer, rebaseWarning, statusOf, stepRules } from './step-verdict.js'
import { transportDiagnostic } from '../http/transport-error.js'

/** One request sent and its answer, judged. */
export interface Exchange {
  readonly prepared: PreparedRequest
  readonly response: IncomingResponse
  readonly scope: Scope
  readonly assertions: AssertionResult[]
}

export type PagesOutcome =
  | { error: Diagnostic; prepared?: PreparedRequest }
  /** The profile guard kept the request back: the step is skipped with this reason. */
  | { notSent: string }
  | {
      first: Exchange
      shown: Exchange
      assertions: AssertionResult[]
      pages: number
      collected: Record<string, unknown[]>
    }

/** One request, or with `follow` the walk over every page; checks apply to each page. */
export async function fetchPages(step: Step, variables: Scope, context: RunContext): Promise<PagesOutcome> {
  const exchanges: Exchange[] = []
  const collected: Record<string, unknown[]> = Object.fromEntries(
    Object.keys(step.follow?.collect ?? {}).map((name) => [name, []]),
  )
  let next: string | undefined
  const extra: AssertionResult[] = []
  do {
    let prepared: PreparedRequest
    try {
      prepared = prepareRequest(step.request!, variables, context, next)
    } catch (error) {
      if (error instanceof UndefinedPlaceholderError) {
        return {
          error: {
            code: 'E_TEMPLATE_UNDEFINED',
            kind: 'error',
            message: `${error.message}: an earlier step did not capture it`,
            at: step.at,
          },
        }
      }
      // A URL taken from the server (Location, previous) that is not a URL: the server's fault, not a crash of ours.
      return {
        error: {
          code: 'E_BAD_URL',
          kind: 'error',
          message: `cannot build the request: ${(error as Error).message}`,
          at: step.at,
          hint: 'a link or Location the server sent earlier is not a valid URI reference',
        },
      }
    }
    const refused = context.ownership?.refusal(prepared.outgoing.method, prepared.outgoing.url)
    if (
      !refused &&
      prepared.outgoing.method === 'PUT' &&
      context.profiles &&
      isProfileUrlUnder(prepared.outgoing.url, context.baseUrl)
    ) {
      const notSent = await context.profiles.beforeWrite(context, step.request!.auth, prepared.outgoing.body)
      if (notSent) return { notSent }
    }
    if (refused)
      return {
        error: {
          code: 'E_WRITE_REFUSED',
          kind: 'error',
          message: `not sent: ${prepared.outgoing.method} ${prepared.outgoing.url}: ${refused}`,
          at: step.at,
          hint: "nothing of the account was touched; see the create step's failure for why the activity is not proven the run's own",
        },
        prepared,
      }
    let response: IncomingResponse
    try {
      response = await context.client.send(prepared.outgoing)
    } catch (error) {
      return {
        error: { ...transportDiagnostic(error, prepared.outgoing.url, context.timeoutMs), at: step.at },
        prepared,
      }
    }
    const scope = { ...variables, ...responseScope(response, prepared.outgoing.url) }
    const judged = [
      ...evaluateChecks(step.expect.checks, scope),
      ...(step.expect.schema
        ? await checkSchema(step.expect.schema, scope['body'], scope['bodyText'] as string, {
            strict: context.strict,
            signal: context.interrupted,
          })
        : []),
    ]
    const assertions = judgeAnswer(judged, scope, step, step.follow ? exchanges.length + 1 : undefined)
    if (prepared.rebasedFrom)
      extra.push(rebaseWarning(prepared.rebasedFrom, prepared.outgoing.url, step, stepRules(step)))
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
      extra.push({
        ok: false,
        severity: 'failure',
        rules: stepRules(step),
        target: step.follow.next,
        matcher: 'follow',
        message: `the feed had not ended after ${step.follow.maxPages} pages (the \`previous\` link kept coming)`,
        at: step.at,
      })
      break
    }
  } while (next && !context.interrupted.aborted)
  const first = exchanges[0]!
  const shown = exchanges.find((exchange) => statusOf(exchange.assertions) === 'failed') ?? exchanges.at(-1)!
  const perPage = exchanges.map((exchange) => exchange.assertions)
  return {
    first,
    shown,
    assertions: [...(step.follow ? collapsePages(perPage) : perPage.flat()), ...extra],
    pages: exchanges.length,
    collected,
  }
}
