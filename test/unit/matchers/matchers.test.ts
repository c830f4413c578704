import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MATCHERS } from '../../../src/matchers/index.js'

interface Row {
  readonly actual: unknown
  readonly expected: unknown
  readonly passed: boolean
}

function test(name: string, actual: unknown, expected: unknown): boolean {
  const matcher = MATCHERS.get(name)
  if (!matcher) throw new Error(`no matcher "${name}"`)
  return matcher.test(actual, expected)
}

const USER = 'application/vnd.com.service.User+json'
const SPEC_TIME = 'Tue, 1 Mar 2011 07:00:00'
const SPEC_TIME_MS = Date.UTC(2011, 2, 1, 7)

describe('equality matchers', () => {
  it.each<Row>([
    { actual: 5, expected: 5, passed: true },
    { actual: 5, expected: 5.0, passed: true },
    { actual: '5', expected: 5, passed: false },
    { actual: null, expected: null, passed: true },
    { actual: undefined, expected: null, passed: false },
    { actual: { a: 1, b: [1, { c: 2 }] }, expected: { b: [1, { c: 2 }], a: 1 }, passed: true },
    { actual: { a: 1, b: 2 }, expected: { a: 1 }, passed: false },
    { actual: { a: 1 }, expected: { a: 1, b: 2 }, passed: false },
    { actual: [1, 2], expected: [2, 1], passed: false },
    { actual: [], expected: {}, passed: false },
    { actual: 'Running', expected: 'running', passed: false },
  ])('equals: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('equals', actual, expected)).toBe(passed)
    expect(test('notEquals', actual, expected)).toBe(!passed)
  })

  it.each<Row>([
    { actual: 200, expected: [200, 304], passed: true },
    { actual: 304, expected: [200, 304], passed: true },
    { actual: 201, expected: [200, 304], passed: false },
    { actual: '200', expected: [200, 304], passed: false },
    { actual: { a: 1 }, expected: [{ a: 1 }], passed: true },
    { actual: 200, expected: [], passed: false },
  ])('oneOf: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('oneOf', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    // objects: extra keys are fine, missing ones are not
    { actual: { type: 'Running', notes: 'x', extra: true }, expected: { type: 'Running' }, passed: true },
    { actual: { type: 'Running' }, expected: { type: 'Running', notes: 'x' }, passed: false },
    { actual: { type: 'Running' }, expected: { type: 'Cycling' }, passed: false },
    { actual: { a: { b: 1, c: 2 }, d: 3 }, expected: { a: { b: 1 } }, passed: true },
    { actual: { a: null }, expected: { a: null }, passed: true },
    { actual: {}, expected: { a: null }, passed: false },
    { actual: null, expected: {}, passed: false },
    { actual: [], expected: {}, passed: false },
    // arrays: same length, alike in order
    {
      actual: [
        { t: 0, x: 1 },
        { t: 1, x: 2 },
      ],
      expected: [{ t: 0 }, { t: 1 }],
      passed: true,
    },
    { actual: [{ t: 1 }, { t: 0 }], expected: [{ t: 0 }, { t: 1 }], passed: false },
    { actual: [{ t: 0 }, { t: 1 }, { t: 2 }], expected: [{ t: 0 }, { t: 1 }], passed: false },
    { actual: [{ t: 0 }], expected: [{ t: 0 }, { t: 1 }], passed: false },
    { actual: { 0: 1 }, expected: [1], passed: false },
    // scalars: equal
    { actual: 1.5, expected: 1.5, passed: true },
    { actual: '1.5', expected: 1.5, passed: false },
  ])('like: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('like', actual, expected)).toBe(passed)
  })
})

describe('number and size matchers', () => {
  it.each([
    { name: 'gt', actual: 6, expected: 5, passed: true },
    { name: 'gt', actual: 5, expected: 5, passed: false },
    { name: 'gt', actual: '6', expected: 5, passed: false },
    { name: 'gt', actual: undefined, expected: 5, passed: false },
    { name: 'gte', actual: 5, expected: 5, passed: true },
    { name: 'gte', actual: 4.9, expected: 5, passed: false },
    { name: 'lt', actual: 399, expected: 400, passed: true },
    { name: 'lt', actual: 400, expected: 400, passed: false },
    { name: 'lte', actual: 400, expected: 400, passed: true },
    { name: 'lte', actual: 401, expected: 400, passed: false },
    { name: 'lte', actual: null, expected: 400, passed: false },
    { name: 'length', actual: [1, 2, 3], expected: 3, passed: true },
    { name: 'length', actual: 'abc', expected: 3, passed: true },
    { name: 'length', actual: [1, 2], expected: 3, passed: false },
    { name: 'length', actual: { length: 3 }, expected: 3, passed: false },
    { name: 'length', actual: undefined, expected: 0, passed: false },
    { name: 'minLength', actual: [1, 2], expected: 2, passed: true },
    { name: 'minLength', actual: [1], expected: 2, passed: false },
    { name: 'maxLength', actual: [], expected: 0, passed: true },
    { name: 'maxLength', actual: 'abcd', expected: 3, passed: false },
  ])('$name: $actual vs $expected → $passed', ({ name, actual, expected, passed }) => {
    expect(test(name, actual, expected)).toBe(passed)
  })
})

describe('string and list matchers', () => {
  it.each<Row>([
    { actual: 'Running on a track', expected: 'track', passed: true },
    { actual: 'Running', expected: 'running', passed: false },
    { actual: 'a1', expected: 1, passed: false },
    { actual: ['12', '13'], expected: '13', passed: true },
    { actual: [12, 13], expected: '13', passed: false },
    // on lists an element must be `like` the expected value
    { actual: [{ uri: '/a/1', type: 'Running' }, { uri: '/a/2' }], expected: { uri: '/a/1' }, passed: true },
    { actual: [{ uri: '/a/1' }], expected: { uri: '/a/1', type: 'Running' }, passed: false },
    { actual: [[1, 2], [3]], expected: [3], passed: true },
    { actual: [[1, 2]], expected: [1], passed: false },
    { actual: [], expected: 'x', passed: false },
    { actual: undefined, expected: 'x', passed: false },
    { actual: { a: 'x' }, expected: 'x', passed: false },
  ])('contains: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('contains', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    // some element agrees with the expected object on every field the element has
    {
      actual: [
        { id: '1', type: 'Cycling' },
        { id: '2', type: 'Running' },
      ],
      expected: { id: '2', type: 'Running', source: 'App' },
      passed: true,
    },
    { actual: [{ id: '2' }], expected: { id: '2', type: 'Running' }, passed: true },
    { actual: [{ id: '2', type: 'Cycling' }], expected: { id: '2', type: 'Running' }, passed: false },
    { actual: [{ id: '2', extra: 1 }], expected: { id: '2' }, passed: false },
    { actual: [{}], expected: { id: '2' }, passed: false },
    { actual: [], expected: { id: '2' }, passed: false },
    { actual: undefined, expected: { id: '2' }, passed: false },
    { actual: ['2'], expected: { id: '2' }, passed: false },
  ])('containsPartOf: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('containsPartOf', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: ['12', '13'], expected: '14', passed: true },
    { actual: ['12', '13'], expected: '13', passed: false },
    { actual: [{ uri: '/a/1', type: 'Running' }], expected: { uri: '/a/1' }, passed: false },
    { actual: 'Running', expected: 'Cycling', passed: true },
    { actual: [], expected: '13', passed: true },
    // "the feed does not list the deleted activity" holds when there is no list at all
    { actual: undefined, expected: '13', passed: true },
  ])('notContains: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('notContains', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: 'fc-run-42', expected: '^fc-run-\\d+$', passed: true },
    { actual: 'FC-RUN-42', expected: '^fc-run-\\d+$', passed: false },
    { actual: 42, expected: '42', passed: false },
    { actual: undefined, expected: '.*', passed: false },
    { actual: 'a.b', expected: '^a\\.b$', passed: true },
    { actual: 'axb', expected: '^a\\.b$', passed: false },
  ])('matches: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('matches', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: 'Bearer abc', expected: 'abc', passed: false },
    { actual: 'Not found', expected: 'abc', passed: true },
    { actual: undefined, expected: 'abc', passed: true },
    { actual: 42, expected: '42', passed: true },
  ])('notMatches: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('notMatches', actual, expected)).toBe(passed)
  })

  it('gives the same answer when one pattern is used again and again', () => {
    const answers = ['fc-1', 'fc-2', 'x', 'fc-3'].map((actual) => test('matches', actual, '^fc-\\d$'))
    expect(answers).toEqual([true, true, false, true])
  })
})

describe('structure matchers', () => {
  it.each([
    { name: 'present', actual: 0, expected: true, passed: true },
    { name: 'present', actual: null, expected: true, passed: true },
    { name: 'present', actual: '', expected: true, passed: true },
    { name: 'present', actual: undefined, expected: true, passed: false },
    { name: 'present', actual: undefined, expected: false, passed: true },
    { name: 'present', actual: 'x', expected: false, passed: false },
    { name: 'absent', actual: undefined, expected: true, passed: true },
    { name: 'absent', actual: null, expected: true, passed: false },
    { name: 'type', actual: 2, expected: 'integer', passed: true },
    { name: 'type', actual: 1.5, expected: 'integer', passed: false },
    { name: 'type', actual: '2', expected: 'integer', passed: false },
    { name: 'type', actual: 1.5, expected: 'number', passed: true },
    { name: 'type', actual: '1.5', expected: 'number', passed: false },
    { name: 'type', actual: 'x', expected: 'string', passed: true },
    { name: 'type', actual: false, expected: 'boolean', passed: true },
    { name: 'type', actual: 'false', expected: 'boolean', passed: false },
    { name: 'type', actual: [], expected: 'array', passed: true },
    { name: 'type', actual: [], expected: 'object', passed: false },
    { name: 'type', actual: null, expected: 'object', passed: false },
    { name: 'type', actual: {}, expected: 'object', passed: true },
    { name: 'type', actual: null, expected: 'null', passed: true },
    { name: 'type', actual: undefined, expected: 'null', passed: false },
    { name: 'unique', actual: ['12', '13'], expected: true, passed: true },
    { name: 'unique', actual: [], expected: true, passed: true },
    { name: 'unique', actual: ['12', '13', '12'], expected: true, passed: false },
    { name: 'unique', actual: [12, '12'], expected: true, passed: true },
    {
      name: 'unique',
      actual: [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      expected: true,
      passed: false,
    },
    { name: 'unique', actual: 'abc', expected: true, passed: false },
  ])('$name: $actual vs $expected → $passed', ({ name, actual, expected, passed }) => {
    expect(test(name, actual, expected)).toBe(passed)
  })
})

describe('time matchers', () => {
  it.each<Row>([
    { actual: 'Sun, 06 Nov 1994 08:49:37 GMT', expected: true, passed: true },
    { actual: 'Thu, 29 Feb 1996 23:59:59 GMT', expected: true, passed: true },
    // obsolete forms a server must not send
    { actual: 'Sunday, 06-Nov-94 08:49:37 GMT', expected: true, passed: false },
    { actual: 'Sun Nov  6 08:49:37 1994', expected: true, passed: false },
    // not HTTP dates at all
    { actual: '1994-11-06T08:49:37Z', expected: true, passed: false },
    { actual: 'Sun, 06 Nov 1994 08:49:37 +0000', expected: true, passed: false },
    { actual: 'Sun, 6 Nov 1994 08:49:37 GMT', expected: true, passed: false },
    { actual: 'sun, 06 nov 1994 08:49:37 GMT', expected: true, passed: false },
    { actual: 'Mon, 06 Nov 1994 08:49:37 GMT', expected: true, passed: false },
    { actual: 'Fri, 29 Feb 1995 08:49:37 GMT', expected: true, passed: false },
    { actual: 784111777000, expected: true, passed: false },
    { actual: undefined, expected: true, passed: false },
  ])('httpDate: $actual → $passed', ({ actual, expected, passed }) => {
    expect(test('httpDate', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: SPEC_TIME, expected: true, passed: true },
    { actual: 'Tuesday, 1 March 2011 07:00:00', expected: true, passed: true },
    { actual: 'Tue, 01 Mar 2011 07:00:00', expected: true, passed: true },
    { actual: 'tue, 1 mar 2011 07:00:00', expected: true, passed: true },
    { actual: 'Tue, 1 Mar 2011 7:00:00', expected: true, passed: false },
    { actual: 'Tue, 1 Mar 2011 07:00:00 GMT', expected: true, passed: false },
    { actual: 'Tue, 1 Mar 11 07:00:00', expected: true, passed: false },
    { actual: 'Tue, 31 Feb 2011 07:00:00', expected: true, passed: false },
    { actual: 'Xyz, 1 Mar 2011 07:00:00', expected: true, passed: false },
    { actual: '2011-03-01T07:00:00', expected: true, passed: false },
    { actual: SPEC_TIME_MS, expected: true, passed: false },
  ])('specTime: $actual → $passed', ({ actual, expected, passed }) => {
    expect(test('specTime', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: SPEC_TIME, expected: '2011-03-01T07:00:00Z', passed: true },
    { actual: SPEC_TIME, expected: SPEC_TIME_MS, passed: true },
    { actual: SPEC_TIME, expected: 'Tue, 01 Mar 2011 07:00:00 GMT', passed: true },
    { actual: 'Tuesday, 01 March 2011 07:00:00', expected: SPEC_TIME, passed: true },
    { actual: '2011-03-01T08:00:00+01:00', expected: SPEC_TIME, passed: true },
    { actual: 'Tue, 1 Mar 2011 00:00:00', expected: '2011-03-01', passed: true },
    { actual: SPEC_TIME, expected: '2011-03-01T07:00:01Z', passed: false },
    { actual: SPEC_TIME, expected: 'not a time', passed: false },
    { actual: undefined, expected: undefined, passed: false },
  ])('sameInstant: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('sameInstant', actual, expected)).toBe(passed)
  })

  const earlier = 'Sun, 06 Nov 1994 08:49:37 GMT'
  const later = 'Sun, 06 Nov 1994 08:49:38 GMT'
  it.each([
    { name: 'after', actual: later, expected: earlier, passed: true },
    { name: 'after', actual: earlier, expected: earlier, passed: false },
    { name: 'before', actual: earlier, expected: later, passed: true },
    { name: 'before', actual: earlier, expected: earlier, passed: false },
    { name: 'notBefore', actual: earlier, expected: earlier, passed: true },
    { name: 'notBefore', actual: earlier, expected: later, passed: false },
    { name: 'notAfter', actual: earlier, expected: earlier, passed: true },
    { name: 'notAfter', actual: later, expected: earlier, passed: false },
    { name: 'notAfter', actual: 'Tue, 1 Mar 2011 07:00:00', expected: '2011-03-01T07:00:00Z', passed: true },
    { name: 'after', actual: undefined, expected: earlier, passed: false },
    { name: 'notBefore', actual: later, expected: 'garbage', passed: false },
  ])('$name: $actual vs $expected → $passed', ({ name, actual, expected, passed }) => {
    expect(test(name, actual, expected)).toBe(passed)
  })
})

describe('HTTP matchers', () => {
  it.each<Row>([
    { actual: '/fitnessActivities/12', expected: true, passed: true },
    { actual: '/fitnessActivities?page=2&pageSize=5', expected: true, passed: true },
    { actual: '/', expected: true, passed: true },
    { actual: 'http://x/y', expected: true, passed: false },
    { actual: '//x/y', expected: true, passed: false },
    { actual: 'fitnessActivities/12', expected: true, passed: false },
    { actual: '/fitness Activities', expected: true, passed: false },
    { actual: '', expected: true, passed: false },
    { actual: 12, expected: true, passed: false },
  ])('relativeUri: $actual → $passed', ({ actual, expected, passed }) => {
    expect(test('relativeUri', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: 'https://api.example/fitnessActivities?page=1', expected: true, passed: true },
    { actual: 'http://localhost:8080/x', expected: true, passed: true },
    { actual: '/fitnessActivities?page=1', expected: true, passed: false },
    { actual: 'ftp://api.example/x', expected: true, passed: false },
    { actual: 'http://', expected: true, passed: false },
    { actual: 'http://a b/x', expected: true, passed: false },
  ])('absoluteUrl: $actual → $passed', ({ actual, expected, passed }) => {
    expect(test('absoluteUrl', actual, expected)).toBe(passed)
  })

  it.each<Row>([
    { actual: USER, expected: 'User', passed: true },
    { actual: `${USER}; charset=utf-8`, expected: 'User', passed: true },
    { actual: USER.toUpperCase(), expected: 'User', passed: true },
    { actual: 'application/json', expected: 'User', passed: false },
    { actual: 'application/vnd.com.service.Profile+json', expected: 'User', passed: false },
    { actual: 'application/vnd.com.service.FitnessActivity+json', expected: 'FitnessActivityEdit', passed: true },
    { actual: 'application/json; charset=UTF-8', expected: 'application/json', passed: true },
    { actual: undefined, expected: 'User', passed: false },
  ])('mediaType: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('mediaType', actual, expected)).toBe(passed)
  })

  it.each([
    { name: 'statusClass', actual: 200, expected: '2xx', passed: true },
    { name: 'statusClass', actual: 299, expected: '2xx', passed: true },
    { name: 'statusClass', actual: 304, expected: '2xx', passed: false },
    { name: 'statusClass', actual: 404, expected: '4xx', passed: true },
    { name: 'statusClass', actual: '200', expected: '2xx', passed: false },
    { name: 'notStatusClass', actual: 404, expected: '2xx', passed: true },
    { name: 'notStatusClass', actual: 500, expected: '2xx', passed: true },
    { name: 'notStatusClass', actual: 204, expected: '2xx', passed: false },
    { name: 'notStatusClass', actual: undefined, expected: '2xx', passed: false },
  ])('$name: $actual vs $expected → $passed', ({ name, actual, expected, passed }) => {
    expect(test(name, actual, expected)).toBe(passed)
  })
})

describe('every', () => {
  it.each<Row>([
    { actual: ['a', 'b'], expected: { type: 'string' }, passed: true },
    { actual: ['a', 1], expected: { type: 'string' }, passed: false },
    { actual: [], expected: { type: 'string' }, passed: true },
    { actual: undefined, expected: { type: 'string' }, passed: false },
    { actual: '/a', expected: { relativeUri: true }, passed: false },
    { actual: ['/a/1', '/a/2'], expected: { relativeUri: true, matches: '^/a/\\d$' }, passed: true },
    { actual: ['/a/1', 'http://x/a/2'], expected: { relativeUri: true, matches: '/a/\\d$' }, passed: false },
    { actual: [{ t: 0, x: 1 }, { t: 0 }], expected: { like: { t: 0 } }, passed: true },
    { actual: [[1, 2], [3]], expected: { every: { type: 'integer' } }, passed: true },
    { actual: [[1, 2], [1.5]], expected: { every: { type: 'integer' } }, passed: false },
    { actual: [[1, 2], []], expected: { minLength: 1, every: { gt: 0 } }, passed: false },
    { actual: [1, 2], expected: { nope: true }, passed: false },
  ])('every: $actual vs $expected → $passed', ({ actual, expected, passed }) => {
    expect(test('every', actual, expected)).toBe(passed)
  })
})

describe('checkExpected', () => {
  it.each([
    { name: 'gt', expected: 5, accepted: true },
    { name: 'gt', expected: 'x', accepted: false },
    { name: 'gt', expected: '${total}', accepted: true },
    { name: 'length', expected: '${count}', accepted: true },
    { name: 'length', expected: [1], accepted: false },
    { name: 'matches', expected: '^a+$', accepted: true },
    { name: 'matches', expected: '(', accepted: false },
    { name: 'notMatches', expected: '[', accepted: false },
    { name: 'matches', expected: 5, accepted: false },
    { name: 'type', expected: 'integer', accepted: true },
    { name: 'type', expected: 'float', accepted: false },
    { name: 'statusClass', expected: '2xx', accepted: true },
    { name: 'statusClass', expected: '6xx', accepted: false },
    { name: 'statusClass', expected: 200, accepted: false },
    { name: 'notStatusClass', expected: '0xx', accepted: false },
    { name: 'notStatusClass', expected: '5xx', accepted: true },
    { name: 'httpDate', expected: true, accepted: true },
    { name: 'httpDate', expected: false, accepted: false },
    { name: 'present', expected: false, accepted: true },
    { name: 'present', expected: 'yes', accepted: false },
    { name: 'absent', expected: false, accepted: false },
    { name: 'oneOf', expected: [200, 304], accepted: true },
    { name: 'oneOf', expected: 200, accepted: false },
    { name: 'mediaType', expected: 'User', accepted: true },
    { name: 'mediaType', expected: 5, accepted: false },
    { name: 'every', expected: { type: 'string' }, accepted: true },
    { name: 'every', expected: { every: { gt: 0 } }, accepted: true },
    { name: 'every', expected: { typ: 'string' }, accepted: false },
    { name: 'every', expected: { gt: 'x' }, accepted: false },
    { name: 'every', expected: { every: { type: 'float' } }, accepted: false },
    { name: 'every', expected: 'string', accepted: false },
    { name: 'equals', expected: { anything: ['goes'] }, accepted: true },
    { name: 'oneOf', expected: '${statuses}', accepted: true },
    { name: 'mediaType', expected: 'application/json', accepted: true },
    { name: 'sameInstant', expected: '${sentStart}', accepted: true },
    { name: 'notBefore', expected: '2011-03-01', accepted: true },
    { name: 'after', expected: 1298962800000, accepted: true },
  ])('$name accepts $expected: $accepted', ({ name, expected, accepted }) => {
    const problem = MATCHERS.get(name)?.checkExpected(expected)
    if (accepted) expect(problem).toBeUndefined()
    else expect(problem).toEqual(expect.any(String))
  })

  it.each([
    { name: 'gt', expected: 'x', problem: 'expects a number' },
    {
      name: 'type',
      expected: 'float',
      problem: 'expects one of string, number, integer, boolean, array, object, null',
    },
    { name: 'statusClass', expected: '6xx', problem: 'expects 1xx, 2xx, 3xx, 4xx or 5xx' },
    { name: 'every', expected: { typ: 'string' }, problem: 'knows no matcher "typ"' },
    { name: 'every', expected: { gt: 'x' }, problem: 'gt expects a number' },
  ])('says what $name expects when given $expected', ({ name, expected, problem }) => {
    expect(MATCHERS.get(name)?.checkExpected(expected)).toBe(problem)
  })

  // BUG: these expectations can never hold, yet checkExpected lets them through, so the mistake
  // shows as a failed check against the server instead of a load error with a line (STYLE §2.7):
  // oneOf takes any text (not only a template), mediaType any text (a misspelt representation name
  // becomes a media type nobody sends), the time matchers anything (even text that is no time).
  it.each([
    { name: 'oneOf', expected: '200, 304' },
    { name: 'mediaType', expected: 'Usr' },
    { name: 'sameInstant', expected: 'yesterday' },
    { name: 'after', expected: { at: 1 } },
  ])('rejects $name: $expected, which nothing can satisfy', ({ name, expected }) => {
    expect(MATCHERS.get(name)?.checkExpected(expected)).toEqual(expect.any(String))
  })

  it('says why a regular expression is not valid', () => {
    expect(MATCHERS.get('matches')?.checkExpected('(')).toMatch(
      /^is not a valid regular expression: .*Unterminated group/,
    )
  })
})

describe('describe', () => {
  it.each([
    { name: 'gt', expected: 5, words: 'greater than 5' },
    { name: 'lte', expected: 400, words: 'at most 400' },
    { name: 'equals', expected: { a: 1 }, words: 'equal to {"a":1}' },
    { name: 'mediaType', expected: 'User', words: `the media type ${USER} (parameters such as charset allowed)` },
    { name: 'notStatusClass', expected: '2xx', words: 'a status other than 2xx' },
    {
      name: 'every',
      expected: { type: 'string', minLength: 1 },
      words: 'a list whose every element is of type string and of length at least 1',
    },
    { name: 'equals', expected: 'x'.repeat(300), words: `equal to "${'x'.repeat(199)}… (102 more characters)` },
  ])('$name $expected reads "$words"', ({ name, expected, words }) => {
    expect(MATCHERS.get(name)?.describe(expected)).toBe(words)
  })
})

describe('MATCHERS', () => {
  const root = join(import.meta.dirname, '../../..')
  const scenarioSchema = JSON.parse(readFileSync(join(root, 'schemas/scenario.schema.json'), 'utf8')) as {
    definitions: { matchers: { properties: Record<string, unknown> } }
  }
  const documented = [
    ...readFileSync(join(root, 'docs/scenario-format.md'), 'utf8')
      .split('## Checks')[1]!
      .split('## Expressions')[0]!
      .matchAll(/^\| (.+?) \|/gm),
  ]
    .flatMap((row) => [...row[1]!.matchAll(/`(\w+)/g)].map((name) => name[1]!))
    .filter((name) => name !== 'matcher')

  it('knows every matcher the scenario schema allows, and no other', () => {
    expect([...MATCHERS.keys()].sort()).toEqual(Object.keys(scenarioSchema.definitions.matchers.properties).sort())
  })

  it('knows every matcher docs/scenario-format.md lists', () => {
    expect([...MATCHERS.keys()].sort()).toEqual([...new Set(documented)].sort())
  })
})
