import { describe, expect, it } from 'vitest'
import {
  failedSteps,
  formatScenarioEvidence,
  formatStepEvidence,
  requestText,
  responseText,
} from '../../../../src/report/text/evidence.js'
import { indexRules } from '../../../../src/report/text/format-diagnostic.js'
import { assertion, RULES, scenario, step } from '../../../fixtures/report/build-result.js'

const rules = indexRules(RULES)

describe('transcript', () => {
  it('shows the request line, headers and a pretty-printed body', () => {
    expect(
      requestText({
        method: 'POST',
        url: 'http://h/fitnessActivities',
        headers: { 'content-type': 'application/json' },
        body: '{"type":"Running"}',
      }),
    ).toBe(
      ['POST http://h/fitnessActivities', 'content-type: application/json', '', '{', '  "type": "Running"', '}'].join(
        '\n',
      ),
    )
  })

  it('shows the status with the size and says when the runner cut the body', () => {
    expect(responseText({ status: 204, headers: {}, bodyBytes: 0 })).toBe('HTTP 204 (0 bytes)')
    expect(
      responseText({ status: 200, headers: { a: 'b' }, body: 'x'.repeat(5), bodyBytes: 70000, truncated: true }),
    ).toBe('HTTP 200 (70000 bytes, truncated when recorded)\na: b\n\nxxxxx')
  })

  it('cuts a large body', () => {
    const text = responseText({
      status: 200,
      headers: {},
      body: { items: Array.from({ length: 500 }, (_, i) => ({ i })) },
      bodyBytes: 9000,
    })
    expect(text).toMatch(/… \(\d+ more characters not shown\)$/)
    expect(text.length).toBeLessThan(4200)
  })
})

describe('formatStepEvidence', () => {
  const failing = step({
    attempts: 3,
    assertions: [
      assertion(),
      assertion({
        ok: false,
        rules: ['USER-READ'],
        expected: 200,
        actual: 500,
        message: 'status: expected 200, got 500',
      }),
      assertion({ ok: false, severity: 'warning', message: 'only a warning' }),
    ],
  })

  it('shows failed checks (not passed ones or warnings), polling, transcript and curl in that order', () => {
    const text = formatStepEvidence(failing, { colors: false, rules })
    expect(text).not.toContain('status is equal to 200')
    expect(text).not.toContain('only a warning')
    const order = [
      'error[E_CHECK_FAILED]: status: expected 200, got 500',
      'sent 3 times (eventually)',
      'request:',
      'response:',
      'reproduce',
    ]
    const positions = order.map((part) => text.indexOf(part))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('leaves the transcript out when asked', () => {
    const text = formatStepEvidence(failing, { colors: false, rules, transcript: false })
    expect(text).not.toContain('request:')
    expect(text).not.toContain('curl')
  })
})

describe('failedSteps and formatScenarioEvidence', () => {
  it('finds failed steps and failed cleanup steps with their positions', () => {
    const broken = step({
      name: 'b',
      status: 'error',
      assertions: [],
      error: { code: 'E_CONNECT', kind: 'error', message: 'connection refused' },
    })
    const result = scenario({
      steps: [step({ name: 'a' }), broken],
      cleanup: [step({ name: 'c', assertions: [assertion({ ok: false })] })],
    })
    expect(failedSteps(result).map(({ step: s, position, cleanup }) => [s.name, position, cleanup])).toEqual([
      ['b', 2, false],
      ['c', 1, true],
    ])
    const text = formatScenarioEvidence(result, { colors: false, rules })
    expect(text).toContain('step 2 "b" could not be judged\nerror[E_CONNECT]: connection refused')
    expect(text).toContain('cleanup step 1 "c" failed\nerror[E_CHECK_FAILED]')
  })
})
