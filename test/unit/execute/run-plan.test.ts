// runPlan (src/execute/run-plan.ts): which scenarios run beside the exclusive ones. Scenarios whose
// steps send nothing (checks only, one with a fixed wait) keep the test off the network; the order of
// the reporter's start and end events shows what overlapped.
import { describe, expect, it } from 'vitest'
import type { Scenario, Step } from '../../../src/model/scenario.js'
import type { ScenarioResult } from '../../../src/model/result.js'
import type { ReportedScenarioResult } from '../../../src/model/reported-result.js'
import { planRun } from '../../../src/plan/plan-run.js'
import { runPlan } from '../../../src/execute/run-plan.js'
import { createRedactor } from '../../../src/execute/redact.js'
import { createRunValues } from '../../../src/execute/run-values.js'
import type { RunContext } from '../../../src/execute/run-context.js'
import type { HttpClient } from '../../../src/execute/http-exchange.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }

function scenario(id: string, fields: Partial<Pick<Scenario, 'writes' | 'exclusive'>> & { waitMs?: number } = {}): Scenario {
  const step = { name: `${id} step`, at, expect: { checks: [] }, capture: {}, ...(fields.waitMs ? { waitMs: fields.waitMs } : {}) } as unknown as Step
  return { id, title: id, file: at.file, at, rules: ['USER-READ'], tags: [], tokens: ['token'], writes: fields.writes ?? false, exclusive: fields.exclusive ?? false, steps: [step], cleanup: [] }
}

const noNetwork: HttpClient = {
  send: () => Promise.reject(new Error('no request is expected in this test')),
  close: () => Promise.resolve(),
} as unknown as HttpClient

const context: RunContext = {
  baseUrl: new URL('http://127.0.0.1:9/'),
  tokens: { token: 'test-token' },
  client: noNetwork,
  timeoutMs: 1000,
  strict: false,
  run: createRunValues(new Date()),
  config: {},
  redact: createRedactor(new Map()),
  interrupted: new AbortController().signal,
}

const suite = [
  scenario('reads-first', {}),
  scenario('exclusive-slow', { exclusive: true, waitMs: 150 }),
  scenario('writes', { writes: true }),
  scenario('reads-second', {}),
]

async function eventsAt(concurrency: number): Promise<string[]> {
  const events: string[] = []
  const plan = planRun(suite, { readOnly: false, availableRoles: new Set(['token']) })
  await runPlan(plan, {
    context,
    concurrency,
    bail: false,
    finalizeScenario: (result: ScenarioResult) => result as unknown as ReportedScenarioResult,
    reporter: {
      onScenarioStart: (view) => void events.push(`start ${view.id}`),
      onScenarioEnd: (result) => void events.push(`end ${result.id}`),
    },
  })
  return events
}

describe('runPlan', () => {
  it('runs the concurrent scenarios that write nothing beside the exclusive one, and the writing ones after it', async () => {
    const events = await eventsAt(4)
    const endOfExclusive = events.indexOf('end exclusive-slow')
    expect(events.indexOf('end reads-first')).toBeLessThan(endOfExclusive)
    expect(events.indexOf('end reads-second')).toBeLessThan(endOfExclusive)
    expect(events.indexOf('start writes')).toBeGreaterThan(endOfExclusive)
  })

  it('with --concurrency 1 runs one scenario at a time: the exclusive one first, then the rest in plan order', async () => {
    expect(await eventsAt(1)).toEqual([
      'start exclusive-slow', 'end exclusive-slow',
      'start reads-first', 'end reads-first',
      'start writes', 'end writes',
      'start reads-second', 'end reads-second',
    ])
  })
})
