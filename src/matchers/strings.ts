import { isLike } from './deep-compare.js'
import { expectsString, show, type MatcherDefinition } from './matcher-definition.js'

function containsValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected)
  return Array.isArray(actual) && actual.some((element) => isLike(element, expected))
}

export const contains: MatcherDefinition = {
  name: 'contains',
  checkExpected: () => undefined,
  test: (actual, expected) => containsValue(actual, expected),
  describe: (expected) => `containing ${show(expected)}`,
}

/** Also holds for an absent value: "the feed does not list the deleted activity" holds for an empty feed. */
export const notContains: MatcherDefinition = {
  name: 'notContains',
  checkExpected: () => undefined,
  test: (actual, expected) => !containsValue(actual, expected),
  describe: (expected) => `not containing ${show(expected)}`,
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
