// The run's polling budget (--max-polling): every `eventually` step of a run spends from the one budget
// the run session owns and hands to the step loop. The client is a fake that counts what it is sent and
// answers with that count, so a check can wait for a later answer.
import { describe, expect, it } from 'vitest'
import type { Scenario, Step } from '../../../../src/model/scenario.js'
import { runScenario } from '../../../../src/execute/run-scenario.js'
import { createPollingBudget } from '../../../../src/execute/step/step-polling.js'
import { countingClient, stepContext } from '../../../helpers/step-context.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }

/** A GET resent every millisecond, for up to a minute, until its answer counts `until`. */
function pollingScenario(id: string, until: number): Scenario {
  const step: Step = {
    name: 'the count reaches it',
    at,
    request: { method: 'GET', url: '/count', query: {}, headers: {}, auth: 'token', wire: false },
    expect: {
      checks: [{ path: 'body.count', matcher: 'equals', expected: until, rules: ['FEED-X'], at, severity: 'failure' }],
    },
    eventually: { withinMs: 60_000, everyMs: 1 },
    capture: {},
  }
  return {
    id,
    title: id,
    file: at.file,
    at,
    rules: ['FEED-X'],
    tags: [],
    tokens: ['token'],
    writes: false,
    exclusive: false,
    steps: [step],
    cleanup: [],
  }
}

describe('the polling budget', () => {
  it('a step that would resend past the cap stops, is judged on its last answer and says the budget is used up', async () => {
    const polling = createPollingBudget(0)
    const result = await runScenario(pollingScenario('capped', 3), stepContext(countingClient()), { polling })
    const [step] = result.steps
    expect(step?.attempts).toBe(1)
    expect(step?.status).toBe('failed')
    expect(step?.assertions.map((a) => a.message)).toContainEqual(
      expect.stringContaining('(--max-polling 0 s) is used up'),
    )
    expect(polling).toEqual({ spentMs: 0, capMs: 0, cappedSteps: 1 })
  })

  it('within the cap a step resends until its checks pass, and what it waited is spent from the budget', async () => {
    const polling = createPollingBudget(60_000)
    const result = await runScenario(pollingScenario('passes', 3), stepContext(countingClient()), { polling })
    expect(result.steps.map((step) => [step.status, step.attempts])).toEqual([['passed', 3]])
    expect(polling.spentMs).toBeGreaterThan(0)
    expect(polling.cappedSteps).toBe(0)
  })

  it('without a budget nothing caps a step', async () => {
    const result = await runScenario(pollingScenario('uncapped', 3), stepContext(countingClient()))
    expect(result.steps.map((step) => [step.status, step.attempts])).toEqual([['passed', 3]])
  })
})
