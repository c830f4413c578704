// A step hands its scenario what it created and deleted, and the scenario writes it down (docs/safety.md,
// section 5): a create is in the cleanup ledger before anything else is sent, its Location's proof read
// included, and what a step deleted is not deleted again at the end. The fake server and ledger note every
// request and every ledger line on one timeline, so the test sees the order they happened in.
import { describe, expect, it } from 'vitest'
import type { RequestTemplate, Scenario, Step } from '../../../../src/model/scenario.js'
import { runScenario } from '../../../../src/execute/run-scenario.js'
import { createOwnershipGate } from '../../../../src/execute/safety/ownership-gate.js'
import type { Ledger, LedgerEntry } from '../../../../src/execute/safety/ledger.js'
import { createRedactor } from '../../../../src/execute/finalize/redact.js'
import { createRunValues } from '../../../../src/execute/run-values.js'
import type { RunContext } from '../../../../src/execute/run-context.js'
import type { IncomingResponse } from '../../../../src/execute/http/http-exchange.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }
const BASE = 'http://127.0.0.1:9/'
const run = createRunValues(new Date())

function request(method: RequestTemplate['method'], url: string, body?: string): RequestTemplate {
  return { method, url, query: {}, headers: {}, auth: 'token', wire: false, ...(body === undefined ? {} : { body }) }
}

const create: Step = {
  name: 'create',
  at,
  request: request('POST', '/fitnessActivities', JSON.stringify({ notes: run.marker, start_time: '1985-03-14' })),
  expect: { checks: [] },
  capture: { activity: 'headers.location' },
  creates: 'headers.location',
}

const deleteIt: Step = {
  name: 'delete it',
  at,
  request: request('DELETE', '${activity}'),
  expect: { checks: [] },
  capture: {},
}

function scenario(steps: Step[]): Scenario {
  return {
    id: 'changes',
    title: 'changes',
    file: at.file,
    at,
    rules: [],
    tags: [],
    tokens: ['token'],
    writes: true,
    exclusive: false,
    steps,
    cleanup: [],
  }
}

/** Runs the scenario against a fake account; returns the timeline of requests and ledger lines. */
async function timeline(steps: Step[]): Promise<{ events: string[]; statuses: string[] }> {
  const events: string[] = []
  const stored = new Set<string>()
  let next = 1
  const answer = (status: number, headers: Record<string, string> = {}, json?: unknown): IncomingResponse => {
    const body = Buffer.from(json === undefined ? '' : JSON.stringify(json))
    return { status, headers, body, wireBytes: body.length, durationMs: 0 }
  }
  const ownership = createOwnershipGate(new URL(BASE))
  const ledger: Ledger = {
    file: 'ledger.ndjson',
    broken: undefined,
    lines: [],
    close: () => undefined,
    record: (entry: LedgerEntry) => void events.push(`ledger ${entry.type} ${'url' in entry ? entry.url : ''}`),
  }
  const context: RunContext = {
    baseUrl: new URL(BASE),
    tokens: { token: 'test-token-of-the-user' },
    client: ownership.guard({
      send: (sent) => {
        const path = new URL(sent.url).pathname
        events.push(`${sent.method} ${path}`)
        if (sent.method === 'POST') {
          const url = `${BASE}fitnessActivities/${next++}`
          stored.add(url)
          return Promise.resolve(answer(201, { location: url }))
        }
        if (sent.method === 'DELETE') return Promise.resolve(answer(stored.delete(sent.url) ? 204 : 404))
        return Promise.resolve(
          stored.has(sent.url)
            ? answer(200, { 'content-type': 'application/json' }, { notes: run.marker, start_time: '1985-03-14' })
            : answer(404),
        )
      },
      close: () => Promise.resolve(),
    }),
    timeoutMs: 1000,
    strict: false,
    run,
    config: {},
    redact: createRedactor(new Map()),
    interrupted: new AbortController().signal,
    ownership,
    ledger,
  }
  const result = await runScenario(scenario(steps), context)
  return { events, statuses: [...result.steps, ...result.cleanup].map((step) => `${step.name}: ${step.status}`) }
}

describe('what a step changes, as its scenario writes it down', () => {
  it("a create is in the ledger before its Location's proof read, and is deleted at the end", async () => {
    const { events, statuses } = await timeline([create])
    const url = `${BASE}fitnessActivities/1`
    expect(events).toEqual([
      'POST /fitnessActivities',
      `ledger created ${url}`,
      'GET /fitnessActivities/1', // the proof read
      'GET /fitnessActivities/1', // read again before the delete
      'DELETE /fitnessActivities/1',
      `ledger deleted ${url}`,
      'GET /fitnessActivities/1', // gone
      `ledger deleted ${url}`,
    ])
    expect(statuses).toEqual(['create: passed', 'clean up /fitnessActivities/1: passed'])
  })

  it('what a step deleted is written down at once and not deleted again at the end', async () => {
    const { events, statuses } = await timeline([create, deleteIt])
    const url = `${BASE}fitnessActivities/1`
    expect(events).toEqual([
      'POST /fitnessActivities',
      `ledger created ${url}`,
      'GET /fitnessActivities/1',
      'DELETE /fitnessActivities/1',
      `ledger deleted ${url}`,
    ])
    expect(statuses).toEqual(['create: passed', 'delete it: passed'])
  })

  it('each create of a parallel group is in the ledger before its own proof read, and all are deleted at the end', async () => {
    const group: Step = {
      name: 'creates at once',
      at,
      expect: { checks: [] },
      capture: {},
      parallel: [{ step: { ...create, capture: {} }, repeat: 3 }],
    }
    const { events } = await timeline([group])
    for (const id of [1, 2, 3]) {
      const url = `${BASE}fitnessActivities/${id}`
      const written = events.indexOf(`ledger created ${url}`)
      expect(written).toBeGreaterThan(-1)
      expect(written).toBeLessThan(events.indexOf(`GET /fitnessActivities/${id}`))
      expect(events.filter((event) => event === `DELETE /fitnessActivities/${id}`)).toHaveLength(1)
    }
  })
})
