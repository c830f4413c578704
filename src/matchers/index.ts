import * as equality from './equality.js'
import * as http from './http.js'
import type { MatcherDefinition } from './matcher-definition.js'
import * as numbers from './numbers.js'
import * as strings from './strings.js'
import * as structure from './structure.js'
import * as time from './time.js'

const ALL: readonly MatcherDefinition[] = [
  // equality
  equality.equals,
  equality.notEquals,
  equality.oneOf,
  equality.like,
  // numbers and sizes
  numbers.gt,
  numbers.gte,
  numbers.lt,
  numbers.lte,
  numbers.length,
  numbers.minLength,
  numbers.maxLength,
  // strings and lists
  strings.contains,
  strings.notContains,
  strings.containsPartOf,
  strings.matches,
  strings.notMatches,
  // structure
  structure.present,
  structure.absent,
  structure.type,
  structure.unique,
  // times
  time.sameInstant,
  time.after,
  time.before,
  time.notBefore,
  time.notAfter,
  time.httpDate,
  time.specTime,
  // HTTP
  http.relativeUri,
  http.absoluteUrl,
  http.mediaType,
  http.statusClass,
  http.notStatusClass,
]

const BY_NAME = new Map(ALL.map((matcher) => [matcher.name, matcher]))

function nestedMatchers(expected: unknown): [MatcherDefinition, unknown][] | string {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    return 'expects matchers, e.g. { type: string }'
  const pairs: [MatcherDefinition, unknown][] = []
  for (const [name, value] of Object.entries(expected)) {
    const matcher = BY_NAME.get(name)
    if (!matcher) return `knows no matcher "${name}"`
    const problem = matcher.checkExpected(value)
    if (problem) return `${name} ${problem}`
    pairs.push([matcher, value])
  }
  return pairs
}

/** Every element of an array satisfies nested matchers: `every: { type: string }`. An empty array holds. */
const every: MatcherDefinition = {
  name: 'every',
  checkExpected: (expected) => {
    const pairs = nestedMatchers(expected)
    return typeof pairs === 'string' ? pairs : undefined
  },
  test: (actual, expected) => {
    const pairs = nestedMatchers(expected)
    return (
      Array.isArray(actual) &&
      typeof pairs !== 'string' &&
      actual.every((element) => pairs.every(([m, v]) => m.test(element, v)))
    )
  },
  describe: (expected) => {
    const pairs = nestedMatchers(expected)
    return typeof pairs === 'string'
      ? 'a list'
      : `a list whose every element is ${pairs.map(([m, v]) => m.describe(v)).join(' and ')}`
  },
}
BY_NAME.set(every.name, every)

export const MATCHERS: ReadonlyMap<string, MatcherDefinition> = BY_NAME

export type { MatcherDefinition } from './matcher-definition.js'
