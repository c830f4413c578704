// A feed page of 300,000 items (under the 8 MiB body cap): a `follow` walk used to die with
// E_INTERNAL ("Maximum call stack size exceeded") spreading the page into push(); now it collects them.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadSuites } from '../../../../src/load/load-suites.js'
import { runConformance } from '../../../../src/execute/run-conformance.js'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'

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
  const outcome = await runConformance(
    loaded.scenarios,
    loaded.rules,
    {
      target: { baseUrl: new URL(server.url), tokens: { token: 'large-page-token' }, label: 'large page' },
      filter: { readOnly: true },
      strict: false,
      concurrency: 1,
      timeoutMs: 20_000,
      bail: false,
      insecure: false,
      configValues: {},
    },
    {},
  )
  if (outcome.kind !== 'ran') throw new Error(`expected the run to happen, got ${outcome.kind}`)
  const steps = outcome.result.scenarios[0]!.steps
  expect(steps.map((step) => step.error?.code)).toEqual([undefined, undefined])
  expect(steps.map((step) => step.status)).toEqual(['passed', 'passed'])
})
