import { toInstant } from '../expression/to-instant.js'
import { isImfFixdate, parseSpecTime } from '../validation/time-formats.js'
import { expectsTrue, isTemplate, type MatcherDefinition } from './matcher-definition.js'
import { formatValue } from '../shared/format-value.js'

/** Times compare as parsed instants, never as text: the spec gives formats, not spellings. */
function temporal(name: string, words: string, compare: (a: number, b: number) => boolean): MatcherDefinition {
  return {
    name,
    checkExpected: (expected) =>
      isTemplate(expected) || toInstant(expected) !== undefined
        ? undefined
        : 'expects a time (spec time, HTTP date, ISO, YYYY-MM-DD, epoch ms) or a ${…} template',
    test: (actual, expected) => {
      const a = toInstant(actual)
      const b = toInstant(expected)
      return a !== undefined && b !== undefined && compare(a, b)
    },
    describe: (expected) => `${words} ${formatValue(expected)}`,
  }
}

export const sameInstant = temporal('sameInstant', 'the same instant as', (a, b) => a === b)
export const after = temporal('after', 'later than', (a, b) => a > b)
export const before = temporal('before', 'earlier than', (a, b) => a < b)
export const notBefore = temporal('notBefore', 'not earlier than', (a, b) => a >= b)
export const notAfter = temporal('notAfter', 'not later than', (a, b) => a <= b)

export const httpDate: MatcherDefinition = {
  name: 'httpDate',
  checkExpected: expectsTrue,
  test: (actual) => typeof actual === 'string' && isImfFixdate(actual),
  describe: () => 'an HTTP date in GMT (IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT")',
}

export const specTime: MatcherDefinition = {
  name: 'specTime',
  checkExpected: expectsTrue,
  test: (actual) => typeof actual === 'string' && parseSpecTime(actual) !== undefined,
  describe: () => 'a time in the spec format "<weekday>, <day> <month> <year> <HH:MM:SS>"',
}
