// The paging scenarios skip on a small account, but only when the page itself agrees: a page that
// says size 11 while it shows 4 items and no link to the rest contradicts "the account holds 4
// activities or fewer", so it is judged (and fails), not skipped.
import { expect, it } from 'vitest'
import { parseGrep } from '../../../src/plan/grep-filter.js'
import { answerUserEntryPoint, startServerForTest } from '../../helpers/loopback-server.js'
import { ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'

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
  const server = await startServerForTest((request, response) => {
    request.resume()
    if (answerUserEntryPoint(request, response)) return
    // Whatever is asked: four items and no previous link, with the size given.
    response
      .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
      .end(JSON.stringify({ size, items: [1, 2, 3, 4].map(item) }))
  })
  const outcome = await runFixture(
    'suites/feed/feed-paging.yaml',
    targetOf(server.url, { token: 'paging-skip-test-token' }, 'loopback'),
    { filter: { readOnly: true, grep: parseGrep('^feed-page-size$') }, concurrency: 1, timeoutMs: 2_000 },
  )
  return ranResult(outcome).scenarios.find((scenario) => scenario.id === 'feed-page-size')!
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
