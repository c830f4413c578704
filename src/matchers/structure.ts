import { deepEqual } from './deep-compare.js'
import { expectsTrue, type MatcherDefinition } from './matcher-definition.js'

export const present: MatcherDefinition = {
  name: 'present',
  checkExpected: (expected) => (typeof expected === 'boolean' ? undefined : 'expects true or false'),
  test: (actual, expected) => (actual !== undefined) === expected,
  describe: (expected) => (expected ? 'present' : 'absent'),
}

export const absent: MatcherDefinition = {
  name: 'absent',
  checkExpected: expectsTrue,
  test: (actual) => actual === undefined,
  describe: () => 'absent',
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

export const type: MatcherDefinition = {
  name: 'type',
  checkExpected: (expected) =>
    TYPES.includes(expected as (typeof TYPES)[number]) ? undefined : `expects one of ${TYPES.join(', ')}`,
  test: (actual, expected) =>
    expected === 'integer'
      ? Number.isInteger(actual)
      : expected === 'number'
        ? typeof actual === 'number'
        : typeOf(actual) === expected,
  describe: (expected) => `of type ${String(expected)}`,
}

export const unique: MatcherDefinition = {
  name: 'unique',
  checkExpected: expectsTrue,
  test: (actual) => Array.isArray(actual) && actual.every((x, i) => actual.findIndex((y) => deepEqual(x, y)) === i),
  describe: () => 'a list without duplicates',
}
