import { isLike } from './deep-compare.js'
import { expectsString, isTemplate, type MatcherDefinition } from './matcher-definition.js'
import { formatValue } from '../shared/format-value.js'

function containsValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected)
  return Array.isArray(actual) && actual.some((element) => isLike(element, expected))
}

export const contains: MatcherDefinition = {
  name: 'contains',
  checkExpected: () => undefined,
  test: (actual, expected) => containsValue(actual, expected),
  describe: (expected) => `containing ${formatValue(expected)}`,
}

/**
 * Array: some element is an object whose every field equals the expected object's field of that name.
 * The reverse of `contains`: the element may lack fields, but not differ in one. For "the feed item of
 * this activity shows its values" where §2.2 lets an item lack `source`, `entry_mode` and `has_map`.
 */
export const containsPartOf: MatcherDefinition = {
  name: 'containsPartOf',
  checkExpected: (expected) => (isObjectOrTemplate(expected) ? undefined : 'expects an object'),
  test: (actual, expected) =>
    Array.isArray(actual) && actual.some((element) => isNonEmptyObject(element) && isLike(expected, element)),
  describe: (expected) => `containing an element that agrees with ${formatValue(expected)} on every field it has`,
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
}

function isObjectOrTemplate(value: unknown): boolean {
  return isTemplate(value) || (typeof value === 'object' && value !== null && !Array.isArray(value))
}

/** Also holds for an absent value: "the feed does not list the deleted activity" holds for an empty feed. */
export const notContains: MatcherDefinition = {
  name: 'notContains',
  checkExpected: () => undefined,
  test: (actual, expected) => !containsValue(actual, expected),
  describe: (expected) => `not containing ${formatValue(expected)}`,
}

const compiled = new Map<string, RegExp>()
/** Patterns come from scenario files: compile each once, not once per response. */
function regexOf(source: string): RegExp {
  let regex = compiled.get(source)
  if (!regex) {
    regex = new RegExp(source)
    compiled.set(source, regex)
  }
  return regex
}

function regexCheck(expected: unknown): string | undefined {
  const problem = expectsString(expected)
  if (problem) return problem
  try {
    new RegExp(expected as string)
    return undefined
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`
  }
}

export const matches: MatcherDefinition = {
  name: 'matches',
  checkExpected: regexCheck,
  test: (actual, expected) => typeof actual === 'string' && regexOf(expected as string).test(actual),
  describe: (expected) => `matching /${String(expected)}/`,
}

export const notMatches: MatcherDefinition = {
  name: 'notMatches',
  checkExpected: regexCheck,
  test: (actual, expected) => typeof actual !== 'string' || !regexOf(expected as string).test(actual),
  describe: (expected) => `not matching /${String(expected)}/`,
}
