import { describe, expect, it } from 'vitest'
import { BLAME_BUDGET, isTied, judgeBlame, sectionsOf } from '../../../src/selftest/blame.js'

const section = (text: string): { section: string } => ({ section: text })

describe('sectionsOf', () => {
  it('splits a rule section on ";" and trims each part', () => {
    expect(sectionsOf(section('§4 rule 2; §2.2'))).toEqual(['§4 rule 2', '§2.2'])
    expect(sectionsOf(section(''))).toEqual([])
    expect(sectionsOf(undefined)).toEqual([])
  })
})

describe('isTied', () => {
  it.each([
    ['§7', '§7 rule 3', true],
    ['§7 rule 3', '§7', true],
    ['§2.2', '§2.2', true],
    ['§2.3; §4 endpoint 7', '§4 endpoint 7', true],
    ['§4 rule 1', '§4 rule 3', false],
    ['§7', '§7.1', false],
    ['§4 rule 1', '§4 rule 10', false],
    ['§2.2', '§2.2 irregularities', true],
    ['§2.3', '§2.2', false],
    ['', '§2.2', false],
  ])('%s and %s tied: %s', (a, b, tied) => {
    expect(isTied(section(a), section(b))).toBe(tied)
  })
})

describe('judgeBlame', () => {
  const catalogue = new Map([
    ['OWN', section('§4 rule 1')],
    ['SAME-SECTION', section('§4 rule 1; §2.2')],
    ['WHOLE-SECTION', section('§4')],
    ['CONTAINED', section('§4 rule 1 table')],
    ['ELSEWHERE', section('§7 rule 3')],
  ])

  it('is exact when only the own rule failed', () => {
    expect(judgeBlame('OWN', ['OWN'], catalogue)).toEqual({
      ownRuleFailed: true,
      others: [],
      untied: [],
      exact: true,
      withinBudget: true,
    })
  })

  it('allows up to the budget of other rules tied by a section', () => {
    const blame = judgeBlame('OWN', ['SAME-SECTION', 'OWN', 'WHOLE-SECTION'], catalogue)
    expect(BLAME_BUDGET).toBe(2)
    expect(blame).toEqual({
      ownRuleFailed: true,
      others: ['SAME-SECTION', 'WHOLE-SECTION'],
      untied: [],
      exact: false,
      withinBudget: true,
    })
  })

  it('is over budget with more tied rules than the budget', () => {
    const blame = judgeBlame('OWN', ['OWN', 'SAME-SECTION', 'WHOLE-SECTION', 'CONTAINED'], catalogue)
    expect(blame).toMatchObject({
      others: ['CONTAINED', 'SAME-SECTION', 'WHOLE-SECTION'],
      untied: [],
      withinBudget: false,
    })
  })

  it('names a failed rule that shares no section as untied', () => {
    expect(judgeBlame('OWN', ['OWN', 'ELSEWHERE'], catalogue)).toMatchObject({
      untied: ['ELSEWHERE'],
      exact: false,
      withinBudget: false,
    })
  })

  it('never passes a fault whose own rule did not fail, however few others did', () => {
    expect(judgeBlame('OWN', ['SAME-SECTION'], catalogue)).toMatchObject({
      ownRuleFailed: false,
      exact: false,
      withinBudget: false,
    })
  })

  it('treats a rule missing from the catalogue as untied', () => {
    expect(judgeBlame('OWN', ['OWN', 'UNKNOWN'], catalogue)).toMatchObject({ untied: ['UNKNOWN'], withinBudget: false })
  })
})
