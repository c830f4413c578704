// runPlan (src/execute/run-plan.ts): what runs beside the exclusive scenarios. The client is a fake
// that answers at once and notes every request it is sent, so the test sees, in the order things
// happened, which requests went out while the exclusive scenario ran.
import { describe, expect, it } from 'vitest'
import type { RequestTemplate, Scenario, Step } from '../../../src/model/scenario.js'
import type { ScenarioResult } from '../../../src/model/result.js'
import type { ReportedScenarioResult } from '../../../src/model/reported-result.js'
import { planRun } from '../../../src/plan/plan-run.js'
import { runPlan } from '../../../src/execute/run-plan.js'
import { stepContext } from '../../helpers/step-context.js'
import type { HttpClient } from '../../../src/execute/http/http-exchange.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }

function step(name: string, fields: { method?: RequestTemplate['method']; waitMs?: number } = {}): Step {
  const request: RequestTemplate | undefined = fields.method && {
    method: fields.method,
    url: `/${name}`,
    query: {},
    headers: {},
    auth: 'token',
    wire: false,
  }
  return {
    name,
    at,
    expect: { checks: [] },
    capture: {},
    ...(request ? { request } : {}),
    ...(fields.waitMs ? { waitMs: fields.waitMs } : {}),
  } as unknown as Step
}

function scenario(id: string, steps: Step[], fields: Partial<Pick<Scenario, 'exclusive'>> = {}): Scenario {
  const writes = steps.some((s) => s.request && s.request.method !== 'GET' && s.request.method !== 'HEAD')
  return {
    id,
    title: id,
    file: at.file,
    at,
    rules: ['USER-READ'],
    tags: [],
    tokens: ['token'],
    writes,
    exclusive: fields.exclusive ?? false,
    steps,
    cleanup: [],
  }
}

const suite = [
  scenario('reads', [step('read-a', { method: 'GET' }), step('read-b', { method: 'GET' })]),
  scenario(
    'exclusive',
    [
      step('exclusive-write', { method: 'POST' }),
      step('exclusive-gap', { waitMs: 120 }),
      step('exclusive-read', { method: 'GET' }),
    ],
    { exclusive: true },
  ),
  scenario('writes-around-a-wait', [
    step('write-before-wait', { method: 'POST' }),
    step('a-wait', { waitMs: 40 }),
    step('write-after-wait', { method: 'PUT' }),
  ]),
  scenario('writes-at-once', [step('quick-write', { method: 'DELETE' })]),
]

/** `slowMs`: how long the fake server takes to answer a path (default: at once). */
async function eventsAt(
  concurrency: number,
  scenarios: Scenario[] = suite,
  slowMs: Readonly<Record<string, number>> = {},
): Promise<string[]> {
  const events: string[] = []
  const client: HttpClient = {
    send: async (request) => {
      const path = new URL(request.url).pathname.slice(1)
      events.push(`${request.method} ${path}`)
      if (slowMs[path]) await new Promise((resolve) => setTimeout(resolve, slowMs[path]))
      return { status: 200, headers: {}, body: Buffer.alloc(0), wireBytes: 0, durationMs: 0 }
    },
    close: () => Promise.resolve(),
  }
  const context = stepContext(client)
  const plan = planRun(scenarios, { readOnly: false, availableRoles: new Set(['token']) })
  const results = await runPlan(plan, {
    context,
    concurrency,
    bail: false,
    finalizeScenario: (result: ScenarioResult) => result as unknown as ReportedScenarioResult,
    reporter: {
      onScenarioStart: (view) => void events.push(`start ${view.id}`),
      onScenarioEnd: (result) => void events.push(`end ${result.id}`),
    },
  })
  expect(results.map((result) => [result.id, result.status])).toEqual(scenarios.map(({ id }) => [id, 'passed']))
  return events
}

describe('runPlan', () => {
  it('while the exclusive scenario runs, no other scenario writes: writes before a wait go first, the rest after it', async () => {
    const events = await eventsAt(4)
    const from = events.indexOf('start exclusive')
    const to = events.indexOf('end exclusive')
    const during = events.slice(from, to)
    expect(during.filter((event) => /^(POST|PUT|DELETE) /.test(event) && event !== 'POST exclusive-write')).toEqual([])
    // The scenario that waits made its first write before, and its second after.
    expect(events.indexOf('POST write-before-wait')).toBeLessThan(from)
    expect(events.indexOf('PUT write-after-wait')).toBeGreaterThan(to)
    expect(events.indexOf('DELETE quick-write')).toBeGreaterThan(-1)
  })

  it('with --concurrency 1 runs one scenario at a time: the exclusive one first, then the rest in load order', async () => {
    const starts = (await eventsAt(1)).filter((event) => event.startsWith('start') || event.startsWith('end'))
    expect(starts).toEqual([
      'start exclusive',
      'end exclusive',
      'start reads',
      'end reads',
      'start writes-around-a-wait',
      'end writes-around-a-wait',
      'start writes-at-once',
      'end writes-at-once',
    ])
  })

  it('starts the exclusive chain once a scenario is past its last wait, without waiting for its clock-free rest', async () => {
    // On a distant server a scenario's wait may be over when it reaches it: its writes after the wait
    // must not hold the chain back, they follow it (issue 30).
    const scenarios = [
      scenario('exclusive', [step('exclusive-write', { method: 'POST' }), step('exclusive-read', { method: 'GET' })], {
        exclusive: true,
      }),
      scenario('past-its-wait', [
        step('short-wait', { waitMs: 1 }),
        step('edit-1', { method: 'PUT' }),
        step('edit-2', { method: 'PUT' }),
        step('edit-3', { method: 'PUT' }),
      ]),
      scenario('slow-before-its-wait', [
        step('slow-create', { method: 'POST' }),
        step('long-wait', { waitMs: 10 }),
        step('edit-after', { method: 'PUT' }),
      ]),
    ]
    const events = await eventsAt(4, scenarios, { 'slow-create': 50, 'edit-1': 40, 'edit-2': 40, 'edit-3': 40 })
    expect(events.indexOf('start exclusive')).toBeLessThan(events.indexOf('PUT edit-3'))
    expect(events.indexOf('PUT edit-3')).toBeGreaterThan(events.indexOf('end exclusive'))
  })
})
