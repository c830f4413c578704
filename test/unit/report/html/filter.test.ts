import { describe, expect, it } from 'vitest'
import { filterScriptSource } from '../../../../src/report/html/html-reporter.js'
import {
  collectTags,
  countMatching,
  matchesFilter,
  matchesText,
  type FilterableScenario,
  type ScenarioFilter,
} from '../../../../src/report/html/filter.js'

const scenarios: FilterableScenario[] = [
  {
    outcome: 'passed',
    warningCount: 0,
    tags: ['user', 'smoke'],
    searchText: 'user-entry-point the entry point user-read',
  },
  {
    outcome: 'failed',
    warningCount: 0,
    tags: ['feed'],
    searchText: 'feed-page-size the feed honours pagesize feed-page-size',
  },
  { outcome: 'passed', warningCount: 2, tags: ['feed', 'smoke'], searchText: 'feed-read the feed is readable' },
  { outcome: 'skipped', warningCount: 0, tags: ['auth'], searchText: 'revoked-feed no --revoked-token given' },
  { outcome: 'expected-failure', warningCount: 0, tags: ['activity'], searchText: 'activity-read known slow' },
  { outcome: 'unexpectedly-passed', warningCount: 1, tags: ['activity'], searchText: 'activity-edit fixed' },
]

const filter = (overrides: Partial<ScenarioFilter>): ScenarioFilter => ({
  status: 'all',
  tag: '',
  text: '',
  ...overrides,
})
const kept = (f: ScenarioFilter): number[] =>
  scenarios.flatMap((scenario, index) => (matchesFilter(scenario, f) ? [index] : []))

describe('matchesFilter', () => {
  it.each([
    { name: 'all', f: filter({}), indexes: [0, 1, 2, 3, 4, 5] },
    { name: 'failed (with known failures and unexpected passes)', f: filter({ status: 'failed' }), indexes: [1, 4, 5] },
    { name: 'warnings', f: filter({ status: 'warnings' }), indexes: [2, 5] },
    { name: 'skipped', f: filter({ status: 'skipped' }), indexes: [3] },
    { name: 'tag', f: filter({ tag: 'smoke' }), indexes: [0, 2] },
    { name: 'tag and status', f: filter({ tag: 'feed', status: 'failed' }), indexes: [1] },
    { name: 'text, any case', f: filter({ text: 'FEED' }), indexes: [1, 2, 3] },
    { name: 'every word must occur', f: filter({ text: '  feed   readable ' }), indexes: [2] },
    { name: 'nothing', f: filter({ text: 'no-such-thing' }), indexes: [] },
  ])('$name', ({ f, indexes }) => {
    expect(kept(f)).toEqual(indexes)
    expect(countMatching(scenarios, f)).toBe(indexes.length)
  })
})

describe('matchesText', () => {
  it.each([
    { query: '', matches: true },
    { query: 'entry', matches: true },
    { query: 'Entry POINT', matches: true },
    { query: 'entry missing', matches: false },
  ])('$query → $matches', ({ query, matches }) => {
    expect(matchesText('user-entry-point the entry point', query)).toBe(matches)
  })
})

describe('collectTags', () => {
  it('lists each tag once, sorted', () => {
    expect(collectTags(scenarios)).toEqual(['activity', 'auth', 'feed', 'smoke', 'user'])
  })
})

describe('the page copy of the filter functions', () => {
  it('stands alone: the serialised source works without this module', () => {
    const page = new Function(`${filterScriptSource()}\nreturn { matchesFilter, countMatching, collectTags }`)() as {
      matchesFilter: typeof matchesFilter
      countMatching: typeof countMatching
      collectTags: typeof collectTags
    }
    expect(
      scenarios.map((scenario) => page.matchesFilter(scenario, filter({ status: 'failed', text: 'activity' }))),
    ).toEqual([false, false, false, false, true, true])
    expect(page.countMatching(scenarios, filter({ tag: 'feed' }))).toBe(2)
    expect(page.collectTags(scenarios)).toEqual(collectTags(scenarios))
  })
})
