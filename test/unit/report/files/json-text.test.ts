import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonTextParts } from '../../../../src/report/files/json-text.js'
import { reported, sampleRun } from '../../../fixtures/report/build-result.js'

const SCENARIOS = new Set(['scenarios'])
const joined = (value: object): string => [...jsonTextParts(value, SCENARIOS)].join('')

describe('the JSON report written in parts', () => {
  it('is byte for byte JSON.stringify(result, null, 2) for a realistic run', () => {
    const result = reported(sampleRun())
    expect(result.scenarios.length).toBeGreaterThan(1)
    expect(joined(result)).toBe(JSON.stringify(result, null, 2))
  })

  it('writes each scenario as a part of its own', () => {
    const result = reported(sampleRun())
    const parts = [...jsonTextParts(result, SCENARIOS)]
    expect(parts.length).toBeGreaterThan(result.scenarios.length)
    expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(JSON.stringify(result, null, 2).length / 2)
  })

  it.each([
    ['an empty object', {}],
    ['an empty scenario list', { a: 1, scenarios: [] }],
    ['omitted values', { a: undefined, b: () => 1, scenarios: [undefined, () => 2, { c: undefined }], d: null }],
    ['texts with line breaks and quotes', { 'k\n"': 'one\ntwo "three"', scenarios: ['a\nb', { 'x\ny': ['\u2028'] }] }],
  ])('is byte for byte JSON.stringify for %s', (_, value) => {
    expect(joined(value)).toBe(JSON.stringify(value, null, 2))
  })

  it('is byte for byte JSON.stringify for generated values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()), (rest, scenarios) => {
        const value = { ...rest, scenarios }
        expect(joined(value)).toBe(JSON.stringify(value, null, 2))
      }),
      { numRuns: 300 },
    )
  })
})
