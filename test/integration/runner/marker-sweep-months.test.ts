// The end-of-run sweep reads the far-past year month by month. One month's read failing used to stop
// the sweep for that user, so marked activities of the later months stayed on the account unnamed.
// Now every month it can read is read, and each it could not is named.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHttpClient } from '../../../src/execute/http/http-client.js'
import { createRedactor } from '../../../src/execute/finalize/redact.js'
import type { RunContext } from '../../../src/execute/run-context.js'
import { sweepMarked } from '../../../src/execute/safety/undo.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

const MARKER = 'fitconform-run-5eeb0a17'
let server: LoopbackServer
let deleted = false

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    request.resume()
    const url = new URL(request.url ?? '/', 'http://x')
    if (url.pathname === '/fitnessActivities') {
      const from = url.searchParams.get('noEarlierThan')
      if (from === '1980-01-01' || from === '1980-06-01')
        return void response.writeHead(500, { 'content-type': 'text/plain' }).end('feed down')
      const items = from === '1980-03-01' && !deleted ? [{ uri: '/fitnessActivities/9' }] : []
      return void response
        .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
        .end(JSON.stringify({ size: items.length, items }))
    }
    if (url.pathname === '/fitnessActivities/9' && request.method === 'DELETE') {
      deleted = true
      return void response.writeHead(204).end()
    }
    if (url.pathname === '/fitnessActivities/9' && !deleted) {
      return void response
        .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivity+json' })
        .end(JSON.stringify({ type: 'Running', start_time: 'Sat, 1 Mar 1980 10:00:00', notes: MARKER }))
    }
    response.writeHead(404).end()
  })
})
afterAll(() => server.close())

it('reads every month after one that fails, deletes what it finds there, and names each month it could not read', async () => {
  const client = createHttpClient({ timeoutMs: 2_000, insecure: false })
  const context: RunContext = {
    baseUrl: new URL(server.url),
    tokens: { token: 'sweep-months-token' },
    client,
    timeoutMs: 2_000,
    strict: false,
    run: { id: 'sweepmonths', marker: MARKER, farYear: 1980, now: Date.now() },
    config: {},
    redact: createRedactor(new Map()),
    interrupted: new AbortController().signal,
  }
  try {
    const outcome = await sweepMarked(context, ['token'], { deleted: new Set(), leftBehind: new Set() })
    expect(outcome.found.map((item) => item.url)).toEqual([`${server.url}/fitnessActivities/9`])
    expect(server.requests).toContain('DELETE /fitnessActivities/9')
    expect(server.requests.filter((line) => line.startsWith('GET /fitnessActivities?'))).toHaveLength(12)
    expect(outcome.problems).toHaveLength(2)
    expect(outcome.problems[0]).toMatch(
      /could not read .*noEarlierThan=1980-01-01.* to look for activities carrying the run marker/,
    )
    expect(outcome.problems[1]).toMatch(/noEarlierThan=1980-06-01/)
  } finally {
    await client.close()
  }
})
