// A server that is sometimes busy is not a broken one (RFC 6585 makes Retry-After optional; §8 leaves
// rate limits open). The whole suite runs against the reference server behind a front that answers
// every 12th request busy: no rule fails, nothing the run created stays behind, and the run counts
// the busy answers.
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import type { ReportedRunResult } from '../../../../src/model/reported-result.js'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { demoTokensFor, ranResult, runFixture, targetOf } from '../../../helpers/run-fixture.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const SUITES = fileURLToPath(new URL('../../../../suites', import.meta.url))

let reference: RunningReferenceServer
beforeAll(async () => {
  reference = await startReferenceServer()
})
afterAll(() => reference.close())

/** Hands the request to the reference server and its answer back, unchanged. */
function forward(target: string, request: IncomingMessage, response: ServerResponse): void {
  const upstream = http.request(
    `${target}${request.url}`,
    { method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    },
  )
  request.pipe(upstream)
}

async function runBehindBusyFront(): Promise<{
  result: ReportedRunResult
  front: LoopbackServer
  busyAnswers: number
}> {
  let count = 0
  let busyAnswers = 0
  const front = await startLoopbackServer((request, response) => {
    if (++count % 12 === 0) {
      request.resume()
      return BUSY_ANSWERS[busyAnswers++ % BUSY_ANSWERS.length]!(response)
    }
    forward(reference.url, request, response)
  })
  try {
    const outcome = await runFixture(SUITES, targetOf(front.url, demoTokensFor(reference.tokens), 'busy front'), {
      // The ledger is what counts creates and deletes: the cleanup summary needs it.
      ledgerDir: makeTempDir('fitconform-busy-'),
    })
    return { result: ranResult(outcome), front, busyAnswers }
  } finally {
    await front.close()
  }
}

// The busy answers take turns: RFC 6585 makes Retry-After optional, and 0 or a past date asks for no wait at all.
const BUSY_ANSWERS: readonly ((response: ServerResponse) => void)[] = [
  (response) => void response.writeHead(429, { 'content-type': 'text/plain' }).end('slow down'),
  (response) => void response.writeHead(503, { 'retry-after': '0' }).end(),
  (response) => void response.writeHead(503, { 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }).end(),
]

describe('the whole suite against a server that answers every 12th request busy (429 without Retry-After, 503 with Retry-After 0 or past)', () => {
  let run: Awaited<ReturnType<typeof runBehindBusyFront>>

  beforeAll(async () => {
    run = await runBehindBusyFront()
  }, 120_000)

  it('fails no rule and no scenario', () => {
    expect(
      run.result.rules.filter((rule) => rule.status === 'failed' || rule.status === 'error').map((rule) => rule.id),
    ).toEqual([])
    expect(
      run.result.scenarios.filter((scenario) => scenario.status === 'failed').map((scenario) => scenario.id),
    ).toEqual([])
  })

  it('leaves nothing it created behind, and cleanup reports no problem', () => {
    const cleanup = run.result.cleanup
    expect(cleanup?.created).toBeGreaterThan(0)
    expect(cleanup?.deleted).toBe(cleanup?.created)
    expect(cleanup?.leftBehind ?? []).toEqual([])
    expect(cleanup?.notProvenOurs ?? []).toEqual([])
    expect(cleanup?.swept).toBe(0)
    expect(cleanup?.openLedger).toBeUndefined()
    expect(run.result.diagnostics).toEqual([])
  })

  it('counts every busy answer, and resent each until it was answered', () => {
    expect(run.busyAnswers).toBeGreaterThan(10)
    expect(run.result.busy).toMatchObject({ answers: run.busyAnswers, stayedBusy: 0 })
  })
})
