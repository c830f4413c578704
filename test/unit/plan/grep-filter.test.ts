import { describe, expect, it } from 'vitest'
import { parseGrep } from '../../../src/plan/grep-filter.js'

describe('--grep', () => {
  it.each([
    { pattern: 'feed', text: 'conditional-feed', matches: true },
    { pattern: 'FEED', text: 'conditional-feed', matches: true },
    { pattern: '^user-', text: 'user-entry-point', matches: true },
    { pattern: '^user-', text: 'forbidden-other-user-x', matches: false },
    { pattern: 'point$', text: 'user-entry-point', matches: true },
    { pattern: 'lifecycle|revoked', text: 'revoked-token', matches: true },
    { pattern: '^exact$', text: 'exact', matches: true },
    { pattern: '^exact$', text: 'exactly', matches: false },
    { pattern: 'a\\|b', text: 'x a|b y', matches: true },
  ])('"$pattern" on "$text" → $matches', ({ pattern, text, matches }) => {
    expect(parseGrep(pattern).test(text)).toBe(matches)
  })

  it('refuses regular-expression syntax, so a pattern that backtracks exponentially cannot hang the run', () => {
    expect(() => parseGrep('^(\\w|.)*Z$')).toThrow(/regular-expression syntax/)
    expect(() => parseGrep('(')).toThrow(/regular-expression syntax/)
  })

  it('matches a long title against many alternatives in one pass', () => {
    const filter = parseGrep(Array.from({ length: 1000 }, (_, i) => `alt${i}`).join('|'))
    expect(filter.test(`${'a'.repeat(100_000)}alt999`)).toBe(true)
  })
})
