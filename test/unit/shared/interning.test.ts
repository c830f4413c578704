// The options of src/shared/interning.ts that a load uses (copied texts, frozen leaves); the run's use
// of it, without them, is tested in test/unit/execute/run-interning.test.ts.
import { describe, expect, it } from 'vitest'
import { createInterner } from '../../../src/shared/interning.js'

/** A value as a file's scenario gives it: texts cut from a larger text, leaves of its own. */
function loadedValue(id: string): { id: string; step: { name: string; rules: string[]; query: object } } {
  const text = `scenarios:\n  - id: ${id}\n    steps:\n      - name: read the entry point\n`
  const name = text.slice(text.indexOf('name: ') + 6, -1)
  return { id, step: { name, rules: ['USER-READ'], query: { fields: 'all' } } }
}

describe('createInterner', () => {
  it('with freeze, shares equal leaves frozen and leaves the value itself open', () => {
    const hold = createInterner({ copyTexts: true, freeze: true })
    const first = hold(loadedValue('a'))
    const second = hold(loadedValue('b'))
    expect(second.step.rules).toBe(first.step.rules)
    expect(second.step.query).toBe(first.step.query)
    expect(Object.isFrozen(first.step.rules)).toBe(true)
    expect(Object.isFrozen(first.step.query)).toBe(true)
    // The value and what holds something of its own (its id, here) stay as they were made.
    expect(Object.isFrozen(first)).toBe(false)
    expect(Object.isFrozen(first.step)).toBe(false)
    expect(second.step).not.toBe(first.step)
  })

  it('with copied texts, keeps every value as it was', () => {
    const hold = createInterner({ copyTexts: true, freeze: true })
    const long = 'x'.repeat(600)
    const first = loadedValue('a')
    const values = [first, loadedValue('b'), { text: long, list: ['é', '\ud800', ''] }]
    const before = structuredClone(values)
    for (const value of values) hold(value)
    expect(values).toEqual(before)
    expect(first.step.name).toBe('read the entry point')
  })

  it('without freeze, shares equal leaves and leaves them open (the run interns its results so)', () => {
    const intern = createInterner()
    const first = intern(loadedValue('a'))
    const second = intern(loadedValue('b'))
    expect(second.step.rules).toBe(first.step.rules)
    expect(Object.isFrozen(first.step.rules)).toBe(false)
  })
})
