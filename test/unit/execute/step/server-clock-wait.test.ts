// untilServerDateAfter (src/execute/step/server-clock-wait.ts) against a real server on 127.0.0.1 whose
// `Date` header the test sets: resends until the server's clock shows a later second, stops at the
// bound, and falls back to one resend after the fixed wait when the server sends no Date.
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpClient } from '../../../../src/execute/http/http-client.js'
import type { HttpClient, IncomingResponse } from '../../../../src/execute/http/http-exchange.js'
import {
  clockInstant,
  sendUntilServerDateAfter,
  type ServerClockWait,
} from '../../../../src/execute/step/server-clock-wait.js'
import { formatHttpDate } from '../../../../src/validation/time-formats.js'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'

const CHANGED = Date.UTC(2026, 10, 24, 10, 0, 0)
const SAME_SECOND = formatHttpDate(CHANGED)
const NEXT_SECOND = formatHttpDate(CHANGED + 1000)

let server: LoopbackServer | undefined
let client: HttpClient | undefined
afterEach(async () => {
  await client?.close()
  await server?.close()
  client = undefined
  server = undefined
})

/**
 * A server whose n-th answer (0-based) carries `dateFor(n)` as Date, or no Date at all when undefined; it records
 * when each request came.
 */
async function startClockServer(
  dateFor: (n: number) => string | undefined,
): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = []
  server = await startLoopbackServer((_request, response) => {
    const date = dateFor(arrivals.length)
    arrivals.push(Date.now())
    if (date === undefined) response.sendDate = false
    else response.setHeader('date', date)
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`answer ${arrivals.length}`)
  })
  return { url: server.url, arrivals }
}

async function readUntil(
  url: string,
  wait: Partial<ServerClockWait>,
): Promise<{ outcome: IncomingResponse | Error; attempts: number }> {
  client = createHttpClient({ timeoutMs: 2000, insecure: false })
  const http = client
  return sendUntilServerDateAfter<IncomingResponse | Error>(
    {
      send: () =>
        http
          .send({ method: 'GET', url: `${url}/user`, headers: {}, wire: false })
          .catch((error: unknown) => error as Error),
      isFailure: (outcome) => outcome instanceof Error,
      dateOf: (outcome) => (outcome instanceof Error ? undefined : outcome.headers['date']),
    },
    { afterMs: CHANGED, signal: new AbortController().signal, everyMs: 5, marginMs: 0, ...wait },
  )
}

const bodyOf = (outcome: IncomingResponse | Error): string =>
  outcome instanceof Error ? outcome.message : outcome.body.toString('utf8')

describe('sendUntilServerDateAfter', () => {
  it('resends while the server dates its answers in the same second, and keeps the first answer dated later', async () => {
    const { url, arrivals } = await startClockServer((n) => (n < 3 ? SAME_SECOND : NEXT_SECOND))
    const { outcome, attempts } = await readUntil(url, {})
    expect(attempts).toBe(4)
    expect(arrivals).toHaveLength(4)
    expect(bodyOf(outcome)).toBe('answer 4')
    expect((outcome as IncomingResponse).headers['date']).toBe(NEXT_SECOND)
  })

  it('sends once when the server is already a second later', async () => {
    const { url, arrivals } = await startClockServer(() => NEXT_SECOND)
    const { attempts } = await readUntil(url, {})
    expect(attempts).toBe(1)
    expect(arrivals).toHaveLength(1)
  })

  it('once an answer is dated later, returns no sooner than the margin after it, so a change sent next falls in that later second even on a modification clock running behind Date', async () => {
    const { url, arrivals } = await startClockServer((n) => (n < 1 ? SAME_SECOND : NEXT_SECOND))
    const { attempts } = await readUntil(url, { marginMs: 120 })
    const returned = Date.now()
    expect(attempts).toBe(2)
    // A lower bound only, as below: the margin was waited after the later-dated answer arrived.
    expect(returned - arrivals[1]!).toBeGreaterThanOrEqual(115)
  })

  it('treats an earlier Date like the same second: not later, so it resends', async () => {
    const { url } = await startClockServer((n) => (n === 0 ? formatHttpDate(CHANGED - 5000) : NEXT_SECOND))
    const { attempts } = await readUntil(url, {})
    expect(attempts).toBe(2)
  })

  it('stops resending at the bound and returns the last answer, still dated the same second', async () => {
    const { url, arrivals } = await startClockServer(() => SAME_SECOND)
    const { outcome, attempts } = await readUntil(url, { boundMs: 600, everyMs: 20 })
    expect(attempts).toBeGreaterThan(1)
    expect(attempts).toBe(arrivals.length)
    expect(bodyOf(outcome)).toBe(`answer ${arrivals.length}`)
    expect((outcome as IncomingResponse).headers['date']).toBe(SAME_SECOND)
  })

  it('without a Date header, resends exactly once, no sooner than the fallback wait after the first send', async () => {
    const { url, arrivals } = await startClockServer(() => undefined)
    const before = Date.now()
    const { outcome, attempts } = await readUntil(url, { fallbackMs: 150 })
    expect(attempts).toBe(2)
    expect(bodyOf(outcome)).toBe('answer 2')
    // A lower bound only (timers never fire early by more than the clock's rounding): the fallback,
    // counted from the first send, waited. (Not from the first arrival: that send may itself be slow.)
    expect(arrivals[1]! - before).toBeGreaterThanOrEqual(145)
  })

  it('with a Date that is not an HTTP date, falls back the same way', async () => {
    const { url } = await startClockServer(() => 'yesterday')
    const { attempts } = await readUntil(url, { fallbackMs: 20 })
    expect(attempts).toBe(2)
  })

  it('when the step has no date to wait past, falls back to one resend', async () => {
    const { url } = await startClockServer(() => SAME_SECOND)
    const { attempts } = await readUntil(url, { afterMs: undefined, fallbackMs: 20 })
    expect(attempts).toBe(2)
  })

  it('does not resend after a transport error: the error is the outcome', async () => {
    const { url } = await startClockServer(() => SAME_SECOND)
    await server!.close()
    const { outcome, attempts } = await readUntil(url, {})
    expect(attempts).toBe(1)
    expect(outcome).toBeInstanceOf(Error)
  })
})

describe('clockInstant', () => {
  it.each([
    { template: '${changed}', scope: { changed: SAME_SECOND }, instant: CHANGED },
    { template: SAME_SECOND, scope: {}, instant: CHANGED },
    { template: '${changed}', scope: {}, instant: undefined },
    { template: '${changed}', scope: { changed: 'not a date' }, instant: undefined },
  ])('$template with $scope → $instant', ({ template, scope, instant }) => {
    expect(clockInstant(template, scope)).toBe(instant)
  })
})
