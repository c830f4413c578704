// A busy server is not a broken one. 429 (RFC 6585 §4) and 503 (RFC 9110 §15.6.4) say the server did
// not handle the request now; Retry-After is optional for both, and the spec leaves rate limits open
// (§8 "rate limits: not shown"). So every request the run sends, a step's or cleanup's, is sent again
// after a pause while the answer is busy, within one budget per request and one per run. A request that
// stays busy throws ServerBusyError: its step is not judged ("server busy"), and no rule fails for it.
import { setTimeout as sleep } from 'node:timers/promises'
import { parseHttpDate } from '../../validation/time-formats.js'
import type { HttpClient, IncomingResponse } from './http-exchange.js'

/** The pauses before each resend when the server names none (or one already past): doubling, then give up. */
export const BUSY_BACKOFF_MS: readonly number[] = [250, 500, 1000, 2000]

/** How long all busy waits of one run may add up to, unless the caller sets its own cap. */
const DEFAULT_MAX_BUSY_WAIT_MS = 60_000

/** The run's account of busy answers, shared by every request it sends. */
export interface BusyBudget {
  /** 429 and 503 answers received, the resent ones included. */
  answers: number
  /** Time spent waiting before resends, summed over requests (concurrent waits add up). */
  waitedMs: number
  /** No resend starts once waitedMs would pass this. */
  readonly capMs: number
  /** Requests that were still busy when their budget or the run's was used up. */
  stayedBusy: number
}

export function createBusyBudget(capMs = DEFAULT_MAX_BUSY_WAIT_MS): BusyBudget {
  return { answers: 0, waitedMs: 0, capMs, stayedBusy: 0 }
}

/** The server kept answering 429/503: the exchange cannot be judged. */
export class ServerBusyError extends Error {
  readonly code = 'E_SERVER_BUSY'
  constructor(
    readonly status: number,
    url: string,
    sends: number,
    why: string,
  ) {
    super(`server busy: ${url} answered ${status} to all ${sends} send${sends === 1 ? '' : 's'}; ${why}`)
    this.name = 'ServerBusyError'
  }
}

export interface BusyRetryOptions {
  /** Waits for one request add up to at most this (the run's --timeout). */
  readonly perRequestMs: number
  /** Replaced in tests that count waits instead of sleeping. */
  readonly pause?: (ms: number) => Promise<void>
}

/**
 * The client, sending again while answers are busy; the counts go to `budget`. An interrupt does not
 * cut a wait short: cleanup after SIGINT is retried the same way, and each wait is bounded anyway.
 */
export function retryingWhileBusy(client: HttpClient, budget: BusyBudget, options: BusyRetryOptions): HttpClient {
  const pause = options.pause ?? ((ms: number) => sleep(ms))
  return {
    async send(request) {
      let waited = 0
      for (let sends = 1; ; sends++) {
        const response = await client.send(request)
        if (!isBusy(response)) return response
        budget.answers++
        const waitMs = nextWaitMs(response, sends)
        const why =
          waitMs === undefined
            ? `gave up after ${sends} sends`
            : waited + waitMs > options.perRequestMs
              ? `the next wait (${waitMs} ms) would pass the ${options.perRequestMs} ms --timeout`
              : budget.waitedMs + waitMs > budget.capMs
                ? `the run's ${Math.round(budget.capMs / 1000)} s budget for busy waits is used up`
                : undefined
        if (why !== undefined) {
          budget.stayedBusy++
          throw new ServerBusyError(response.status, request.url, sends, why)
        }
        waited += waitMs!
        budget.waitedMs += waitMs!
        await pause(waitMs!)
      }
    },
    close: () => client.close(),
  }
}

function isBusy(response: IncomingResponse): boolean {
  return response.status === 429 || response.status === 503
}

/**
 * The pause before send number `sends + 1`: the server's Retry-After when it names a later time,
 * never shorter than our own backoff (a Retry-After of 0 or a past date would otherwise resend at
 * once, for ever); undefined once the backoff is used up.
 */
function nextWaitMs(response: IncomingResponse, sends: number, now = Date.now()): number | undefined {
  const backoff = BUSY_BACKOFF_MS[sends - 1]
  if (backoff === undefined) return undefined
  const asked = retryAfterMs(response.headers['retry-after'], now)
  return Math.max(backoff, asked ?? 0)
}

/** RFC 9110 §10.2.3: delay-seconds or an HTTP-date; anything else is no advice. */
function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000
  const date = parseHttpDate(text)
  return date === undefined ? undefined : date - now
}
