// What a step created and deleted. The step hands each change to its scenario the moment it knows it
// (ScenarioState.record), and the scenario writes it down: a create is in the cleanup ledger before the
// step sends anything else (so an interrupted run still knows it), then its Location is read before
// anything of the run writes to it.
import type { AuthChoice, Step } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import { evaluateExpression, type Scope } from '../../expression/evaluate-expression.js'
import type { Exchange } from './fetch-pages.js'
import { proveCreated } from '../safety/ownership.js'
import { resolveUrl } from '../http/resolve-url.js'
import type { RunContext } from '../run-context.js'

export interface CreatedResource {
  readonly url: string
  readonly auth: AuthChoice
  /** The create's body carried the run marker: a read without it disproves the create, not just ownership. */
  readonly markerSent: boolean
  deleted: boolean
}

/** A change a step made on the server, as it hands it to its scenario. */
export type StepChange =
  | { readonly kind: 'created'; readonly url: string; readonly auth: AuthChoice; readonly markerSent: boolean }
  | { readonly kind: 'deleted'; readonly url: string }

/** What a scenario carries from step to step. */
export interface ScenarioState {
  readonly variables: Record<string, unknown>
  /** Takes each change the moment the step knows it; it is written down before the step sends anything else. */
  readonly record: (change: StepChange) => void
}

/**
 * Hands the scenario what this step created (deleted at the end) and what it deleted (never deleted twice).
 * A create's Location is read at once, before anything of the run writes to it: only a read showing
 * the run's marker and the create's start time admits it through the ownership gate. The checks this
 * returns go with the create step: the rule the read disproves, or a warning when it proved nothing.
 */
export async function registerResources(
  step: Step,
  scope: Scope,
  exchange: Exchange,
  state: ScenarioState,
  context: RunContext,
): Promise<AssertionResult[]> {
  const request = step.request!
  if (request.method === 'DELETE' && exchange.response.status >= 200 && exchange.response.status < 300)
    state.record({ kind: 'deleted', url: exchange.prepared.outgoing.url })
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
  // Written down before the proof read below is sent.
  state.record({ kind: 'created', url, auth: request.auth, markerSent })
  if (!context.ownership) return []
  const startTime = sentStartTime(sentBody)
  const proof = await proveCreated(context, url, request.auth, { markerSent, startTime })
  if (proof.kind === 'proven') {
    context.ownership.admit(proof.url)
    return []
  }
  const message = `the Location ${url} is not proven this create's activity, so nothing of the run will write to it: ${proof.reason}`
  if (proof.kind === 'disproven' && proof.rule)
    return [
      {
        ok: false,
        severity: 'failure',
        rules: [proof.rule],
        target: 'headers.location',
        matcher: 'ownership',
        message,
        at: step.at,
      },
    ]
  return [
    {
      ok: false,
      severity: 'warning',
      rules: [],
      target: 'headers.location',
      matcher: 'ownership',
      message,
      at: step.at,
    },
  ]
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
