// A feed page of 300,000 items (under the 8 MiB body cap): a `follow` walk used to die with
// E_INTERNAL ("Maximum call stack size exceeded") spreading the page into push(); now it collects them.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadSuites } from '../../../../src/load/load-suites.js'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { ranResult, runLoaded, targetOf } from '../../../helpers/run-fixture.js'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/runner/follow-large-page.yaml', import.meta.url))
const ITEMS = 300_000
const PAGE = Buffer.from(JSON.stringify({ size: ITEMS, items: Array.from({ length: ITEMS }, () => ({ uri: '/a/1' })) }))

let server: LoopbackServer
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    request.resume()
    if (answerUserEntryPoint(request, response)) return
    response.writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' }).end(PAGE)
  })
})
afterAll(() => server.close())

it(`collects all ${ITEMS} items of one page without an internal error`, async () => {
  const loaded = await loadSuites([FIXTURE])
  expect(loaded.diagnostics).toEqual([])
  const outcome = await runLoaded(loaded, targetOf(server.url, { token: 'large-page-token' }, 'large page'), {
    filter: { readOnly: true },
    concurrency: 1,
    timeoutMs: 20_000,
  })
  const steps = ranResult(outcome).scenarios[0]!.steps
  expect(steps.map((step) => step.error?.code)).toEqual([undefined, undefined])
  expect(steps.map((step) => step.status)).toEqual(['passed', 'passed'])
})
