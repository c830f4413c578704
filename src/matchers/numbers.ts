import { expectsNumber, type MatcherDefinition } from './matcher-definition.js'

function numeric(name: string, words: string, compare: (a: number, b: number) => boolean): MatcherDefinition {
  return {
    name,
    checkExpected: expectsNumber,
    test: (actual, expected) => typeof actual === 'number' && typeof expected === 'number' && compare(actual, expected),
    describe: (expected) => `${words} ${String(expected)}`,
  }
}

export const gt = numeric('gt', 'greater than', (a, b) => a > b)
export const gte = numeric('gte', 'at least', (a, b) => a >= b)
export const lt = numeric('lt', 'less than', (a, b) => a < b)
export const lte = numeric('lte', 'at most', (a, b) => a <= b)

const lengthOf = (value: unknown): number | undefined =>
  typeof value === 'string' || Array.isArray(value) ? value.length : undefined

function sized(name: string, words: string, compare: (a: number, b: number) => boolean): MatcherDefinition {
  return {
    name,
    checkExpected: expectsNumber,
    test: (actual, expected) => {
      const length = lengthOf(actual)
      return length !== undefined && typeof expected === 'number' && compare(length, expected)
    },
    describe: (expected) => `${words} ${String(expected)}`,
    describeActual: (actual) => {
      if (Array.isArray(actual)) return `${actual.length} item${actual.length === 1 ? '' : 's'}`
      if (typeof actual === 'string') return `a text of length ${actual.length}`
      return undefined
    },
  }
}

export const length = sized('length', 'of length', (a, b) => a === b)
export const minLength = sized('minLength', 'of length at least', (a, b) => a >= b)
export const maxLength = sized('maxLength', 'of length at most', (a, b) => a <= b)
