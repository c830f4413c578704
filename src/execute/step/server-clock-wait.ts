// `untilServerDateAfter`: a read resent until the server's own clock shows a later second than a
// date the scenario captured. HTTP dates have one-second resolution (RFC 9110 §5.6.7) and §4 rule 3
// compares If-Modified-Since with the time of the last change at that resolution (RFC 9110
// §13.1.3), so a date read that must fall after a change, or a change that must fall after a date,
// needs the server's clock to have crossed into a later second. A fixed `wait: 1100` is the worst
// case of that; following the server's `Date` ends the wait when the second has turned, ~0.5 s on
// average.
//
// A change sent right after the wait must be stamped in a later second than the captured date, and a
// server may stamp changes with a clock other than the one its `Date` comes from: RFC 9110 §6.6.1
// asks of `Date` only the best available approximation, and §8.8.2.1 bounds Last-Modified by Date
// from above only. So the wait ends a margin after the answer that shows the later second: a
// modification clock up to that much behind `Date` still stamps the change later. `wait: 1100`
// left the same slack in its worst case (1.1 s after a date read at the end of its second).
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Scope } from '../../expression/evaluate-expression.js'
import { renderTemplate, UndefinedPlaceholderError } from '../../expression/render-template.js'
import { toInstant } from '../../expression/to-instant.js'
import { parseHttpDate } from '../../validation/time-formats.js'

export interface ServerClockWait {
  /** The instant the server's `Date` must be later than; undefined when the step's value is no time (then the fallback applies). */
  readonly afterMs: number | undefined
  readonly signal: AbortSignal
  /** Pause between resends. */
  readonly everyMs?: number
  /** Resending stops this long after the first send; the last answer is judged. */
  readonly boundMs?: number
  /** Without a usable `Date`: resend once, this long after the first send (the old fixed wait). */
  readonly fallbackMs?: number
  /** After the answer dated later: pause this long before the next step (see the file's comment). */
  readonly marginMs?: number
}

export interface ClockedRequest<T> {
  send(): Promise<T>
  /** True when the send produced no answer (a transport error): nothing to wait on, it is judged as it is. */
  isFailure(outcome: T): boolean
  /** The answer's `Date` header, if any. */
  dateOf(outcome: T): string | undefined
}

/** Pause between resends; the bench's replay sleeps as long (bench/support/request-capture.ts). */
export const CLOCK_RESEND_EVERY_MS = 50
const BOUND_MS = 3000
/** One second of HTTP-date resolution plus a margin: what `wait: 1100` gave before. */
const FALLBACK_MS = 1100
/** How far behind `Date` a server's modification clock may run and a change sent next still fall in a later second. */
const MARGIN_MS = 100

/**
 * Sends, then resends while the answer's `Date` is not later than `afterMs`, up to the bound; the
 * last answer is the step's, and once it is dated later the wait lasts the margin more. No new failure of its own: a
 * server whose clock never turns is judged
 * by the step's checks on its last answer. A server without a parseable `Date` (or a step whose
 * date is none) gets one resend after the fixed fallback wait instead, so it neither fails nor hangs.
 */
export async function sendUntilServerDateAfter<T>(
  request: ClockedRequest<T>,
  wait: ServerClockWait,
): Promise<{ outcome: T; attempts: number }> {
  const everyMs = wait.everyMs ?? CLOCK_RESEND_EVERY_MS
  const boundMs = wait.boundMs ?? BOUND_MS
  const started = performance.now()
  let outcome = await request.send()
  let attempts = 1
  const pause = (ms: number): Promise<void> =>
    sleep(Math.max(0, ms), undefined, { signal: wait.signal }).catch(() => undefined)
  while (!request.isFailure(outcome) && !wait.signal.aborted) {
    const serverDate = dateOf(request, outcome)
    if (wait.afterMs === undefined || serverDate === undefined) {
      if (attempts > 1) break
      await pause(started + (wait.fallbackMs ?? FALLBACK_MS) - performance.now())
    } else {
      if (serverDate > wait.afterMs) {
        await pause(wait.marginMs ?? MARGIN_MS)
        break
      }
      if (performance.now() + everyMs - started > boundMs) break
      await pause(everyMs)
    }
    if (wait.signal.aborted) break
    outcome = await request.send()
    attempts++
  }
  return { outcome, attempts }
}

/** The step's `untilServerDateAfter` value as an instant; undefined when a variable is missing or the text is no time. */
export function clockInstant(template: string, scope: Scope): number | undefined {
  try {
    return toInstant(renderTemplate(template, scope))
  } catch (error) {
    if (error instanceof UndefinedPlaceholderError) return undefined
    throw error
  }
}

function dateOf<T>(request: ClockedRequest<T>, outcome: T): number | undefined {
  const header = request.dateOf(outcome)
  return header === undefined ? undefined : parseHttpDate(header)
}
