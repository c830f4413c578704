import { describe, expect, it } from 'vitest'
import { formatValue } from '../../../../src/shared/format-value.js'
import { diffValues, formatDuration, prettyBody } from '../../../../src/report/text/values.js'

describe('formatValue', () => {
  it.each([
    { value: undefined, text: '(absent)' },
    { value: 'a', text: '"a"' },
    { value: { a: [1] }, text: '{"a":[1]}' },
    { value: 'x'.repeat(30), max: 10, text: '"xxxxxxxxx… (22 more characters)' },
  ])('$value → $text', ({ value, max, text }) => {
    expect(formatValue(value, max)).toBe(text)
  })
})

describe('diffValues', () => {
  it.each([
    { expected: { a: 1 }, actual: { a: 1 }, lines: [] },
    { expected: { a: 1 }, actual: {}, lines: ['.a: expected 1, actual (absent)'] },
    { expected: [1, 2], actual: [1, 3], lines: ['[1]: expected 2, actual 3'] },
    {
      expected: { a: { b: 'x' } },
      actual: { a: { b: 'y' }, c: 1 },
      lines: ['.a.b: expected "x", actual "y"', '.c: not expected, actual 1'],
    },
    { expected: { a: 1 }, actual: { a: 1, extra: 2 }, ignoreExtraKeys: true, lines: [] },
  ])('$expected vs $actual', ({ expected, actual, ignoreExtraKeys, lines }) => {
    expect(diffValues(expected, actual, { ignoreExtraKeys: ignoreExtraKeys ?? false })).toEqual(lines)
  })

  it('stops after a few differences', () => {
    const expected = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]))
    const lines = diffValues(expected, {}, { limit: 3 })
    expect(lines).toHaveLength(4)
    expect(lines[3]).toBe('more differences not shown')
  })
})

describe('prettyBody', () => {
  it('indents JSON, also JSON held in text', () => {
    expect(prettyBody({ a: 1 }).text).toBe('{\n  "a": 1\n}')
    expect(prettyBody('{"a":1}').text).toBe('{\n  "a": 1\n}')
    expect(prettyBody('not json').text).toBe('not json')
  })

  it('cuts a long body and says how much is missing', () => {
    const body = prettyBody({ items: Array.from({ length: 200 }, (_, i) => i) }, { maxChars: 10_000, maxLines: 5 })
    expect(body.truncated).toBe(true)
    expect(body.text.split('\n')).toHaveLength(6)
    expect(body.text).toMatch(/… \(\d+ more characters not shown\)$/)
  })
})

describe('formatDuration', () => {
  it.each([
    { ms: 12.4, text: '12ms' },
    { ms: 1234, text: '1.2s' },
  ])('$ms → $text', ({ ms, text }) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
