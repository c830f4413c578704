// An `eventually` step captures from the answer its checks judged, the last one sent, not the first: a later
// step must not judge what a feed listed before it caught up (selftest: no-earlier-than-on-modified-date).
// The client is a fake that answers each request with how many it has been sent.
import { expect, it } from 'vitest'
import type { Scenario, Step } from '../../../../src/model/scenario.js'
import { runScenario } from '../../../../src/execute/run-scenario.js'
import { countingClient, stepContext } from '../../../helpers/step-context.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }

function scenario(): Scenario {
  const poll: Step = {
    name: 'the count reaches 3',
    at,
    request: { method: 'GET', url: '/count', query: {}, headers: {}, auth: 'token', wire: false },
    expect: {
      checks: [{ path: 'body.count', matcher: 'equals', expected: 3, rules: ['FEED-X'], at, severity: 'failure' }],
    },
    eventually: { withinMs: 60_000, everyMs: 1 },
    capture: { seen: 'body.count' },
  }
  const use: Step = {
    name: 'what it captured',
    at,
    expect: {
      checks: [{ path: 'seen', matcher: 'equals', expected: 3, rules: ['FEED-X'], at, severity: 'failure' }],
    },
    capture: {},
  }
  return {
    ...{ id: 'captures', title: 'captures', file: at.file, at, rules: ['FEED-X'], tags: [], tokens: ['token'] },
    ...{ writes: false, exclusive: false, steps: [poll, use], cleanup: [] },
  }
}

it('captures from the answer the checks passed on, the third', async () => {
  const result = await runScenario(scenario(), stepContext(countingClient()))
  const [poll, use] = result.steps
  expect(poll).toMatchObject({ status: 'passed', attempts: 3 })
  expect(use?.assertions).toMatchObject([{ ok: true, actual: 3 }])
})
