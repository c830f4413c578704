// The paging scenarios skip on a small account, but only when the page itself agrees: a page that
// says size 11 while it shows 4 items and no link to the rest contradicts "the account holds 4
// activities or fewer", so it is judged (and fails), not skipped.
import { afterEach, expect, it } from 'vitest'
import { loadSuites } from '../../../src/load/load-suites.js'
import { runConformance } from '../../../src/execute/run-conformance.js'
import { parseGrep } from '../../../src/plan/grep-filter.js'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

let server: LoopbackServer | undefined
afterEach(() => server?.close())

const item = (id: number) => ({
  type: 'Running',
  start_time: 'Tue, 1 Mar 2011 07:00:00',
  total_distance: 1000,
  duration: 600,
  source: 'x',
  entry_mode: 'API',
  has_map: 'false',
  uri: `/fitnessActivities/${id}`,
})

async function pageSizeScenarioWith(size: number) {
  server = await startLoopbackServer((request, response) => {
    request.resume()
    if (answerUserEntryPoint(request, response)) return
    // Whatever is asked: four items and no previous link, with the size given.
    response
      .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
      .end(JSON.stringify({ size, items: [1, 2, 3, 4].map(item) }))
  })
  const loaded = await loadSuites(['suites/feed/feed-paging.yaml'])
  const outcome = await runConformance(
    loaded.scenarios,
    loaded.rules,
    {
      target: { baseUrl: new URL(server.url), tokens: { token: 'paging-skip-test-token' }, label: 'loopback' },
      filter: { readOnly: true, grep: parseGrep('^feed-page-size$') },
      strict: false,
      concurrency: 1,
      timeoutMs: 2_000,
      bail: false,
      insecure: false,
      configValues: {},
    },
    {},
  )
  if (outcome.kind !== 'ran') throw new Error(`expected a run, got ${outcome.kind}`)
  return outcome.result.scenarios.find((scenario) => scenario.id === 'feed-page-size')!
}

it('skips feed-page-size when the page shows the whole feed of 4', async () => {
  const scenario = await pageSizeScenarioWith(4)
  expect(scenario.status).toBe('skipped')
  expect(scenario.skipReason).toContain('4 activities or fewer')
})

it('judges feed-page-size when the page says size 11 but links nowhere', async () => {
  const scenario = await pageSizeScenarioWith(11)
  expect(scenario.status).toBe('failed')
  const failedRules = scenario.steps.flatMap((step) => step.assertions.filter((a) => !a.ok).flatMap((a) => a.rules))
  expect(failedRules).toContain('FEED-PREVIOUS-LINK')
})
