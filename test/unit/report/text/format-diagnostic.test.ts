import { describe, expect, it } from 'vitest'
import {
  describeRule,
  formatAssertion,
  formatDiagnostic,
  indexRules,
  valueAtTarget,
} from '../../../../src/report/text/format-diagnostic.js'
import { assertion, RULES } from '../../../fixtures/report/build-result.js'

const rules = indexRules(RULES)

describe('formatDiagnostic', () => {
  it('lays a diagnostic out like hurl: code, location, details, hint', () => {
    const text = formatDiagnostic(
      {
        code: 'E_TIMEOUT',
        kind: 'error',
        message: 'no response within 5000 ms',
        at: { file: 'suites/a.yaml', line: 12, column: 7 },
        details: ['GET http://x/y'],
        hint: 'raise --timeout',
      },
      { colors: false },
    )
    expect(text).toBe(
      [
        'error[E_TIMEOUT]: no response within 5000 ms',
        '  --> suites/a.yaml:12:7',
        '   = GET http://x/y',
        '   = hint: raise --timeout',
      ].join('\n'),
    )
  })

  it('colours only when asked', () => {
    const diagnostic = { code: 'E_INTERNAL', kind: 'internal', message: 'boom' } as const
    expect(formatDiagnostic(diagnostic, { colors: false })).not.toContain('\u001b[')
    expect(formatDiagnostic(diagnostic, { colors: true })).toContain('\u001b[31m')
  })
})

describe('formatAssertion', () => {
  it('names the rule with its section and quote, and shows expected against actual', () => {
    const text = formatAssertion(
      assertion({
        ok: false,
        rules: ['FEED-PAGE-SIZE'],
        target: 'body.items',
        matcher: 'length',
        expected: 4,
        actual: 25,
        message: 'body.items: expected length 4, got 25',
        at: { file: 'suites/feed/page-size.yaml', line: 14, column: 15 },
      }),
      { colors: false, rules },
    )
    expect(text).toBe(
      [
        'error[E_CHECK_FAILED]: body.items: expected length 4, got 25',
        '  --> suites/feed/page-size.yaml:14:15',
        '   = rule FEED-PAGE-SIZE (§4 rule 2): "When the pageSize parameter is given, the page holds that many entries (a request with 4 returns 4 items)"',
        '   = expected: length 4',
        '   = actual:   25',
      ].join('\n'),
    )
  })

  it('falls back to the scenario rules when the check names none', () => {
    const text = formatAssertion(assertion({ ok: false, rules: [] }), {
      colors: false,
      rules,
      fallbackRules: ['USER-READ'],
    })
    expect(text).toContain('= rule USER-READ (§4 endpoint 1): "GET /user returns the User."')
  })

  it('shows a short diff of structured values', () => {
    const text = formatAssertion(
      assertion({
        ok: false,
        target: 'body',
        matcher: 'equals',
        expected: { a: 1, b: [1, 2] },
        actual: { a: 2, b: [1, 2, 3], c: true },
        message: 'body differs',
      }),
      { colors: false },
    )
    expect(text).toContain('   = diff .a: expected 1, actual 2')
    expect(text).toContain('   = diff .b: expected 2 elements, actual 3')
    expect(text).toContain('   = diff .c: not expected, actual true')
  })

  it('takes the value a schema problem points at from the response body', () => {
    const text = formatAssertion(
      assertion({
        ok: false,
        rules: ['FEED-ITEM-HAS-MAP-TEXT'],
        target: 'body.items[0].has_map',
        matcher: 'schema',
        expected: 'FitnessActivityFeed',
        actual: undefined,
        message: 'has_map must be the text "true" or "false"',
      }),
      { colors: false, rules, responseBody: { items: [{ has_map: true }] } },
    )
    expect(text).toContain('   = checked: body.items[0].has_map')
    expect(text).toContain('   = expected: a valid FitnessActivityFeed at body.items[0].has_map')
    expect(text).toContain('   = actual:   true')
  })

  it('labels warnings and documented irregularities', () => {
    const text = formatAssertion(
      assertion({ ok: false, severity: 'warning', irregularity: true, message: 'startTime instead of start_time' }),
      { colors: false },
    )
    expect(text.split('\n')[0]).toBe('warning[E_CHECK_FAILED]: startTime instead of start_time')
    expect(text).toContain('documented irregularity (§2.2): a warning here, a failure under --strict')
  })
})

describe('describeRule', () => {
  it.each([
    { id: 'USER-READ', text: 'rule USER-READ (§4 endpoint 1): "GET /user returns the User."' },
    { id: 'NOT-IN-CATALOGUE', text: 'rule NOT-IN-CATALOGUE' },
  ])('$id → $text', ({ id, text }) => {
    expect(describeRule(id, rules)).toBe(text)
  })
})

describe('valueAtTarget', () => {
  const body = { items: [{ uri: '/a', tags: ['x'] }], size: 1 }
  it.each([
    { target: 'body.size', value: { value: 1 } },
    { target: 'body.items[0].uri', value: { value: '/a' } },
    { target: 'body.items[0].tags[0]', value: { value: 'x' } },
    { target: 'body.items[3].uri', value: { value: undefined } },
    { target: 'headers.date', value: undefined },
    { target: 'bodyText', value: undefined },
  ])('$target', ({ target, value }) => {
    expect(valueAtTarget(body, target)).toEqual(value)
  })
})
