import { deepEqual, isLike } from './deep-compare.js'
import { isTemplate, type MatcherDefinition } from './matcher-definition.js'
import { formatValue } from '../shared/format-value.js'

const anything = (): undefined => undefined

export const equals: MatcherDefinition = {
  name: 'equals',
  checkExpected: anything,
  test: (actual, expected) => deepEqual(actual, expected),
  describe: (expected) => `equal to ${formatValue(expected)}`,
}

export const notEquals: MatcherDefinition = {
  name: 'notEquals',
  checkExpected: anything,
  test: (actual, expected) => !deepEqual(actual, expected),
  describe: (expected) => `not equal to ${formatValue(expected)}`,
}

export const oneOf: MatcherDefinition = {
  name: 'oneOf',
  checkExpected: (expected) => (Array.isArray(expected) || isTemplate(expected) ? undefined : 'expects a list'),
  test: (actual, expected) => Array.isArray(expected) && expected.some((candidate) => deepEqual(actual, candidate)),
  describe: (expected) => `one of ${formatValue(expected)}`,
}

export const like: MatcherDefinition = {
  name: 'like',
  checkExpected: anything,
  test: (actual, expected) => isLike(actual, expected),
  describe: (expected) => `like ${formatValue(expected)} (extra fields allowed)`,
}
