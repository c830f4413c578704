import { describe, expect, it } from 'vitest'
import { toInstant } from '../../../src/expression/to-instant.js'
import { evaluateExpression } from '../../../src/expression/evaluate-expression.js'

const MAR_1_2011_0700 = Date.UTC(2011, 2, 1, 7)

describe('toInstant', () => {
  it.each([
    { value: MAR_1_2011_0700, instant: MAR_1_2011_0700 },
    { value: 'Tue, 1 Mar 2011 07:00:00', instant: MAR_1_2011_0700 },
    { value: 'Tuesday, 01 March 2011 07:00:00', instant: MAR_1_2011_0700 },
    { value: 'Tue, 01 Mar 2011 07:00:00 GMT', instant: MAR_1_2011_0700 },
    { value: 'Tuesday, 01-Mar-11 07:00:00 GMT', instant: MAR_1_2011_0700 },
    { value: 'Tue Mar  1 07:00:00 2011', instant: MAR_1_2011_0700 },
    { value: '2011-03-01T07:00:00Z', instant: MAR_1_2011_0700 },
    { value: '2011-03-01T07:00:00', instant: MAR_1_2011_0700 },
    { value: '2011-03-01T07:00:00.000+00:00', instant: MAR_1_2011_0700 },
    { value: '2011-03-01T08:00:00+01:00', instant: MAR_1_2011_0700 },
    { value: '2011-03-01', instant: Date.UTC(2011, 2, 1) },
    { value: '  2011-03-01  ', instant: Date.UTC(2011, 2, 1) },
  ])('reads $value as the instant $instant', ({ value, instant }) => {
    expect(toInstant(value)).toBe(instant)
  })

  it.each([
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'yesterday',
    '2011-03-01T25:00:00Z',
    'Tue, 1 Mar 2011',
    'Tue, 1 Foo 2011 07:00:00',
    null,
    undefined,
    true,
    {},
  ])('does not take %j for a time', (value) => {
    expect(toInstant(value)).toBeUndefined()
  })
})

describe('dates that do not exist', () => {
  it.each([
    { expression: "'2011-02-31' | time" },
    { expression: 'year | date(2, 30)' },
    { expression: 'year | date(13, 1)' },
  ])('$expression is undefined, not rolled over into the next month', ({ expression }) => {
    expect(evaluateExpression(expression, { year: 2011 })).toBeUndefined()
  })

  it('a real date still works', () => {
    expect(evaluateExpression('year | date(2, 28) | ymd', { year: 2011 })).toBe('2011-02-28')
  })
})
