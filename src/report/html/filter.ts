/*
 * The HTML report's filtering, as plain functions: unit-tested here and copied into the page by
 * their source text (html-reporter.ts), so each must stand alone: no imports, no outer variables,
 * only calls to the other functions of this file, and syntax every browser reads (no TS-only runtime).
 */

export type StatusFilter = 'all' | 'failed' | 'warnings' | 'skipped'

export interface ScenarioFilter {
  readonly status: StatusFilter
  /** '' for every tag. */
  readonly tag: string
  /** Words that must all occur (any case) in the scenario's text. */
  readonly text: string
}

export interface FilterableScenario {
  /** passed | failed | skipped | expected-failure | unexpectedly-passed */
  readonly outcome: string
  readonly warningCount: number
  readonly tags: readonly string[]
  /** Lower-case id, title, file, tags, rules, step names and messages. */
  readonly searchText: string
}

/** Every whitespace-separated word of `query` occurs in `searchText` (case-insensitive). */
export function matchesText(searchText: string, query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  return words.every((word) => searchText.indexOf(word) !== -1)
}

/** `failed` also shows known failures and known failures that now pass: everything not plainly green. */
export function matchesFilter(scenario: FilterableScenario, filter: ScenarioFilter): boolean {
  const failing =
    scenario.outcome === 'failed' ||
    scenario.outcome === 'expected-failure' ||
    scenario.outcome === 'unexpectedly-passed'
  if (filter.status === 'failed' && !failing) return false
  if (filter.status === 'warnings' && scenario.warningCount === 0) return false
  if (filter.status === 'skipped' && scenario.outcome !== 'skipped') return false
  if (filter.tag !== '' && scenario.tags.indexOf(filter.tag) === -1) return false
  return matchesText(scenario.searchText, filter.text)
}

/** How many scenarios a filter keeps, for the "showing N of M" line. */
export function countMatching(scenarios: readonly FilterableScenario[], filter: ScenarioFilter): number {
  return scenarios.filter((scenario) => matchesFilter(scenario, filter)).length
}

/** Tags offered in the tag menu: each once, sorted. */
export function collectTags(scenarios: readonly FilterableScenario[]): string[] {
  const tags: string[] = []
  for (const scenario of scenarios) {
    for (const tag of scenario.tags) if (tags.indexOf(tag) === -1) tags.push(tag)
  }
  return tags.sort()
}

/** The functions above in the order the page needs them. */
export const PAGE_FILTER_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  matchesText,
  matchesFilter,
  countMatching,
  collectTags,
]
