import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parseMediaType, sameMediaType } from '../../../src/validation/media-type.js'

describe('parseMediaType', () => {
  it.each([
    ['application/json', { essence: 'application/json', parameters: {} }],
    ['Application/VND.com.service.User+JSON', { essence: 'application/vnd.com.service.user+json', parameters: {} }],
    ['application/json; charset=utf-8', { essence: 'application/json', parameters: { charset: 'utf-8' } }],
    ['application/json;CHARSET=UTF-8;q=1', { essence: 'application/json', parameters: { charset: 'UTF-8', q: '1' } }],
    ['text/plain; title="a; \\"b\\""', { essence: 'text/plain', parameters: { title: 'a; "b"' } }],
    ['text/plain;;charset=x', { essence: 'text/plain', parameters: { charset: 'x' } }],
    ['text/plain; a=1; a=2', { essence: 'text/plain', parameters: { a: '1' } }],
    ['  text/plain  ', { essence: 'text/plain', parameters: {} }],
  ])('reads %j', (header, expected) => {
    expect(parseMediaType(header)).toEqual(expected)
  })

  it.each([
    '',
    'application',
    'application/',
    '/json',
    'application/json/x',
    'application /json',
    'a/b; charset',
    'a/b; charset = utf-8',
    'a/b; c="unterminated',
  ])('rejects %j', (header) => {
    expect(parseMediaType(header)).toBeUndefined()
  })
})

describe('sameMediaType', () => {
  const user = 'application/vnd.com.service.User+json'
  it.each([
    ['application/vnd.com.service.User+json', true],
    ['application/VND.com.service.User+json; charset=utf-8', true],
    ['application/vnd.com.service.user+json', true],
    ['application/vnd.com.service.Profile+json', false],
    ['application/json', false],
    ['application/vnd.com.service.User+json, text/plain', false],
    [undefined, false],
  ])('%j names the User media type: %s', (header, expected) => {
    expect(sameMediaType(header, user)).toBe(expected)
  })
})

describe('parseMediaType on hostile headers', () => {
  const feed = 'application/vnd.com.service.FitnessActivityFeed+json'

  it('answers at once for the header that used to backtrack for weeks (30 × " ; " then a stray character)', () => {
    // Before the hand parser this test did not return: n=18 took 9 s, n=30 weeks.
    const hostile = `${feed}${' ; '.repeat(30)}!`
    expect(parseMediaType(hostile)).toBeUndefined()
    expect(sameMediaType(hostile, feed)).toBe(false)
    expect(parseMediaType(`${feed}${' ; '.repeat(30)}`)).toEqual({ essence: feed.toLowerCase(), parameters: {} })
  })

  it('looks at each character a bounded number of times, whatever the header holds', () => {
    const separator = fc.constantFrom(' ', '\t', ';', '=', '"', '\\', ',', '/', 'a', '!', '\u00e9')
    const run = fc.tuple(separator, fc.integer({ min: 1, max: 400 })).map(([char, count]) => char.repeat(count))
    const header = fc
      .tuple(
        fc.constantFrom('', feed, 'a/b', ' a/b ; c="'),
        fc.array(fc.oneof(run, fc.string({ maxLength: 20 })), { maxLength: 30 }),
      )
      .map(([start, runs]) => start + runs.join(''))
    fc.assert(
      fc.property(header, (text) => {
        const meter = { steps: 0 }
        parseMediaType(text, meter)
        // A constant number of looks per character: linear work (a backtracking parse needs 2^n on ' ; ' × n).
        expect(meter.steps).toBeLessThanOrEqual(4 * text.length + 8)
      }),
      { numRuns: 2000 },
    )
  })
})
