import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { startServerForTest } from '../../helpers/loopback-server.js'
import { ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/runner/skip-when-refused.yaml', import.meta.url))

async function runAgainst(status: number) {
  const server = await startServerForTest((request, response) => {
    request.resume()
    if (request.url === '/user')
      return void response
        .writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' })
        .end('{"userID":1}')
    response
      .writeHead(status, { 'content-type': 'application/vnd.com.service.Profile+json' })
      .end(status === 200 ? '{"athlete_type":"Runner"}' : '')
  })
  const outcome = await runFixture(FIXTURE, targetOf(server.url, { token: 'skip-test-token' }, 'loopback'), {
    concurrency: 1,
    timeoutMs: 2_000,
  })
  return { result: ranResult(outcome), requests: server.requests.filter((line) => line.startsWith('PUT')) }
}

it('skips with the reason when skipIf holds, even though the step expected 200, and restores nothing', async () => {
  const { result, requests } = await runAgainst(400)
  const scenario = result.scenarios[0]!
  expect(scenario.status).toBe('skipped')
  expect(scenario.skipReason).toContain('refuses an empty profile edit')
  expect(scenario.cleanup[0]?.status).toBe('skipped')
  expect(result.diagnostics).toEqual([])
  expect(requests).toEqual(['PUT /profile']) // the restore was not sent
})

it('runs the cleanup with the captured value when the scenario went ahead', async () => {
  const { result, requests } = await runAgainst(200)
  expect(result.scenarios[0]!.status).toBe('passed')
  // The probe, the profile guard's read before the first change, the restore, and its read at the end (docs/safety.md).
  expect(requests).toEqual(['PUT /profile', 'PUT /profile', 'PUT /profile', 'PUT /profile'])
})
