// The run's interning of ended results (src/execute/run-interning.ts): equal values are kept once,
// and nothing a report reads changes.
import { describe, expect, it } from 'vitest'
import { createResultInterner } from '../../../src/execute/run-interning.js'

/** Two results as two scenarios of the same GET /user give them: equal, but every value its own copy. */
function userResult(id: string, date: string): Record<string, unknown> {
  const body = JSON.parse('{"userID":20001,"profile":"/profile","settings":"/settings","team":"/team"}') as object
  return {
    id,
    status: 'passed',
    steps: [
      {
        name: 'read the entry point',
        request: {
          method: 'GET',
          url: ['http://127.0.0.1:9', '/user'].join(''),
          headers: { accept: 'application/json' },
        },
        response: { status: 200, headers: { date, 'content-type': ['application/', 'json'].join('') }, body },
        assertions: [{ rules: ['USER-READ'], ok: true, message: ['status is equal to ', 200].join('') }],
      },
    ],
  }
}

type Step = {
  request: { url: string; headers: object }
  response: { headers: Record<string, string>; body: object }
  assertions: { rules: string[]; message: string }[]
}
const stepOf = (result: Record<string, unknown>): Step => (result['steps'] as Step[])[0]!

/** `[first, <hole>, last]`. */
function holed(first: number, last: number): number[] {
  const list = new Array<number>(3)
  list[0] = first
  list[2] = last
  return list
}

describe('createResultInterner', () => {
  it('keeps what two results repeat once, and leaves every value as it was', () => {
    const intern = createResultInterner()
    const first = userResult('a', 'Sun, 29 Nov 2026 08:59:27 GMT')
    const second = userResult('b', 'Sun, 29 Nov 2026 08:59:28 GMT')
    const before = structuredClone(second)
    intern(first)
    const kept = intern(second)
    expect(kept).toBe(second)
    expect(kept).toEqual(before)
    expect(JSON.stringify(kept)).toBe(JSON.stringify(before))
    // Bodies, headers objects and rule lists of plain values are shared; the response headers differ (date).
    expect(stepOf(second).response.body).toBe(stepOf(first).response.body)
    expect(stepOf(second).request.headers).toBe(stepOf(first).request.headers)
    expect(stepOf(second).assertions[0]!.rules).toBe(stepOf(first).assertions[0]!.rules)
    expect(stepOf(second).response.headers).not.toBe(stepOf(first).response.headers)
    expect(stepOf(second).response.headers['date']).toBe('Sun, 29 Nov 2026 08:59:28 GMT')
  })

  it('shares no object whose JSON text hides a difference: undefined, NaN, -0, holes', () => {
    const intern = createResultInterner()
    const pairs: [unknown, unknown][] = [
      [{ actual: undefined }, {}],
      [{ n: Number.NaN }, { n: null }],
      [{ n: -0 }, { n: 0 }],
      [holed(1, 3), [1, null, 3]],
    ]
    for (const [one, other] of pairs) {
      const first = intern({ value: one })
      const second = intern({ value: other })
      expect(second.value).not.toBe(first.value)
      expect(second.value).toBe(other)
    }
  })

  it('leaves class instances and frozen values alone', () => {
    const intern = createResultInterner()
    const date = new Date(0)
    const frozen = Object.freeze({ a: 'x' })
    const result = intern({ date, frozen, again: { a: 'x' } })
    expect(result.date).toBe(date)
    expect(result.frozen).toBe(frozen)
    expect(result.again).not.toBe(frozen)
  })
})
