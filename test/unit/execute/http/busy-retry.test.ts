// A busy answer (429/503, with or without Retry-After, zero or past) is resent after a pause within one
// budget per request and one per run; a request that stays busy ends in ServerBusyError. Pauses are
// counted, not slept, so nothing here depends on the clock.
import { describe, expect, it } from 'vitest'
import {
  BUSY_BACKOFF_MS,
  ServerBusyError,
  createBusyBudget,
  retryingWhileBusy,
} from '../../../../src/execute/http/busy-retry.js'
import type { HttpClient, IncomingResponse } from '../../../../src/execute/http/http-exchange.js'

const REQUEST = { method: 'GET', url: 'http://127.0.0.1:1/user', headers: {}, wire: false }

function answer(status: number, headers: Record<string, string> = {}): IncomingResponse {
  return { status, headers, body: Buffer.alloc(0), wireBytes: 0, durationMs: 1 }
}

/** A client that gives the answers in order (the last one for ever), and counts the sends. */
function scripted(answers: readonly IncomingResponse[]): HttpClient & { sends: number } {
  const client = {
    sends: 0,
    send: async () => answers[Math.min(client.sends++, answers.length - 1)]!,
    close: async () => undefined,
  }
  return client
}

function retrying(answers: readonly IncomingResponse[], perRequestMs = 10_000, capMs?: number) {
  const inner = scripted(answers)
  const budget = createBusyBudget(capMs)
  const pauses: number[] = []
  const client = retryingWhileBusy(inner, budget, { perRequestMs, pause: async (ms) => void pauses.push(ms) })
  return { inner, budget, pauses, client }
}

describe('retryingWhileBusy', () => {
  it('resends a 429 without Retry-After after its own backoff and returns the answer that follows', async () => {
    const { client, inner, pauses, budget } = retrying([answer(429), answer(200)])
    expect((await client.send(REQUEST)).status).toBe(200)
    expect(inner.sends).toBe(2)
    expect(pauses).toEqual([BUSY_BACKOFF_MS[0]])
    expect(budget).toMatchObject({ answers: 1, stayedBusy: 0 })
  })

  it.each([
    ['Retry-After: 0', { 'retry-after': '0' }],
    ['a Retry-After date in the past', { 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }],
    ['no Retry-After', {}],
    ['a Retry-After that is not a number or a date', { 'retry-after': 'soon' }],
  ])(
    'sends a 503 with %s a bounded number of times, with growing pauses, then gives up as busy',
    async (_, headers) => {
      const { client, inner, pauses, budget } = retrying([answer(503, headers)])
      const error = await client.send(REQUEST).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ServerBusyError)
      expect((error as Error).message).toMatch(
        /^server busy: http:\/\/127\.0\.0\.1:1\/user answered 503 to all 5 sends/,
      )
      expect(inner.sends).toBe(BUSY_BACKOFF_MS.length + 1)
      expect(pauses).toEqual(BUSY_BACKOFF_MS)
      expect(budget).toMatchObject({ answers: 5, stayedBusy: 1 })
    },
  )

  it('waits as long as Retry-After asks when that is longer than its own backoff', async () => {
    const { client, pauses } = retrying([answer(429, { 'retry-after': '2' }), answer(204)])
    expect((await client.send(REQUEST)).status).toBe(204)
    expect(pauses).toEqual([2000])
  })

  it('gives up at once when the asked wait would pass the request timeout', async () => {
    const { client, inner, pauses } = retrying([answer(503, { 'retry-after': '3600' })], 10_000)
    await expect(client.send(REQUEST)).rejects.toThrow(
      /answered 503 to all 1 send; the next wait \(3600000 ms\) would pass the 10000 ms --timeout/,
    )
    expect(inner.sends).toBe(1)
    expect(pauses).toEqual([])
  })

  it("stops resending once the run's budget for busy waits is used up, for every later request too", async () => {
    const { client, budget } = retrying([answer(429)], 10_000, 1_000)
    await expect(client.send(REQUEST)).rejects.toThrow(/the run's 1 s budget for busy waits is used up/)
    expect(budget.waitedMs).toBe(750) // 250 + 500; the next 1000 would pass the cap
    await expect(client.send(REQUEST)).rejects.toThrow(ServerBusyError)
    expect(budget.stayedBusy).toBe(2)
  })

  it('passes every other status through untouched, 500 included', async () => {
    const { client, inner, budget } = retrying([answer(500)])
    expect((await client.send(REQUEST)).status).toBe(500)
    expect(inner.sends).toBe(1)
    expect(budget.answers).toBe(0)
  })
})
