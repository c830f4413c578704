import { describe, expect, it } from 'vitest'
import {
  formatHttpDate,
  formatSpecTime,
  isAbsoluteHttpUrl,
  isImfFixdate,
  isRelativeUri,
  parseHttpDate,
  parseSpecTime,
} from '../../../src/validation/time-formats.js'

const MARCH_1_2011_0700 = Date.UTC(2011, 2, 1, 7, 0, 0)
const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37)

describe('parseSpecTime (§2.2 start_time)', () => {
  it.each([
    ['Tue, 1 Mar 2011 07:00:00', MARCH_1_2011_0700],
    ['Tue, 01 Mar 2011 07:00:00', MARCH_1_2011_0700],
    ['Tuesday, 1 March 2011 07:00:00', MARCH_1_2011_0700],
    ['tue, 1 mar 2011 07:00:00', MARCH_1_2011_0700],
    ['Sat, 1 Jan 1983 00:00:00', Date.UTC(1983, 0, 1)],
    ['Thu, 29 Feb 2024 23:59:59', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['Sat, 1 Jan 0050 00:00:00', new Date(0).setUTCFullYear(50, 0, 1)],
  ])('reads %j', (text, ms) => {
    expect(parseSpecTime(text)).toBe(ms)
  })

  it.each([
    'Mon, 1 Mar 2011 07:00:00', // the format names the weekday of the date: 1 March 2011 was a Tuesday
    'Wednesday, 1 March 2011 07:00:00',
    '2011-03-01T07:00:00Z',
    'Tue, 1 Mar 2011 07:00:00 GMT',
    'Tue, 1 Mar 2011 7:00:00',
    'Tue 1 Mar 2011 07:00:00',
    'Tue,  1 Mar 2011 07:00:00',
    'Tue, 001 Mar 2011 07:00:00',
    'Tue, 1 Mar 11 07:00:00',
    'Tues, 1 Mar 2011 07:00:00',
    'Tue, 1 Sept 2011 07:00:00',
    'Tue, 1 Marc 2011 07:00:00',
    'Tue, 29 Feb 2011 07:00:00',
    'Tue, 31 Apr 2011 07:00:00',
    'Tue, 0 Mar 2011 07:00:00',
    'Tue, 1 Mar 2011 24:00:00',
    'Tue, 1 Mar 2011 07:60:00',
    'Tue, 1 Mar 2011 07:00:60',
    '',
  ])('rejects %j', (text) => {
    expect(parseSpecTime(text)).toBeUndefined()
  })
})

describe('formatSpecTime', () => {
  it.each([
    [Date.UTC(1983, 0, 1), 'Sat, 1 Jan 1983 00:00:00'],
    [MARCH_1_2011_0700, 'Tue, 1 Mar 2011 07:00:00'],
    [Date.UTC(2024, 11, 31, 23, 59, 59, 999), 'Tue, 31 Dec 2024 23:59:59'],
  ])('writes %i as %j and reads it back to the second', (ms, text) => {
    expect(formatSpecTime(ms)).toBe(text)
    expect(parseSpecTime(text)).toBe(Math.floor(ms / 1000) * 1000)
  })

  it('refuses a time value that is not a time', () => {
    expect(() => formatSpecTime(Number.NaN)).toThrow(RangeError)
  })
})

describe('parseHttpDate (RFC 9110 §5.6.7)', () => {
  it.each([
    ['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['RFC 850', 'Sunday, 06-Nov-94 08:49:37 GMT'],
    ['asctime', 'Sun Nov  6 08:49:37 1994'],
    ['IMF-fixdate with a wrong weekday', 'Mon, 06 Nov 1994 08:49:37 GMT'],
  ])('reads the %s form', (_form, text) => {
    expect(parseHttpDate(text, Date.UTC(2026, 0, 1))).toBe(NOV_6_1994)
  })

  it.each([
    [
      'a year more than 50 years ahead is in the past century',
      'Sunday, 06-Nov-94 08:49:37 GMT',
      Date.UTC(2026, 0, 1),
      1994,
    ],
    [
      'a year less than 50 years ahead is in this century',
      'Thursday, 06-Nov-59 08:49:37 GMT',
      Date.UTC(2026, 0, 1),
      2059,
    ],
    ['years wrap at the century', 'Monday, 06-Nov-05 08:49:37 GMT', Date.UTC(2099, 0, 1), 2105],
  ])('reads a two-digit year: %s', (_title, text, now, year) => {
    const ms = parseHttpDate(text, now)
    expect(ms === undefined ? undefined : new Date(ms).getUTCFullYear()).toBe(year)
  })

  it.each([
    'Sun, 06 Nov 1994 08:49:37 gmt',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 06 Nov 1994 08:49:37 +0000',
    'sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 November 1994 08:49:37 GMT',
    'Sunday, 06 Nov 1994 08:49:37 GMT',
    'Sun, 31 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 25:49:37 GMT',
    'Sun, 06-Nov-94 08:49:37 GMT',
    'Sun Nov 6 08:49:37 1994',
    '1994-11-06T08:49:37Z',
    '',
  ])('rejects %j', (text) => {
    expect(parseHttpDate(text)).toBeUndefined()
  })
})

describe('isImfFixdate and formatHttpDate', () => {
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', true],
    ['Mon, 06 Nov 1994 08:49:37 GMT', false],
    ['Sunday, 06-Nov-94 08:49:37 GMT', false],
    ['Sun Nov  6 08:49:37 1994', false],
    ['Thu, 29 Feb 2024 00:00:00 GMT', true],
    ['Thu, 29 Feb 2023 00:00:00 GMT', false],
    ['Sun, 06 Nov 1994 08:49:37 GMT ', false],
  ])('isImfFixdate(%j) is %s', (text, expected) => {
    expect(isImfFixdate(text)).toBe(expected)
  })

  it.each([
    [NOV_6_1994, 'Sun, 06 Nov 1994 08:49:37 GMT'],
    [Date.UTC(2024, 1, 29), 'Thu, 29 Feb 2024 00:00:00 GMT'],
    [Date.UTC(2011, 2, 1, 7, 0, 0, 500), 'Tue, 01 Mar 2011 07:00:00 GMT'],
  ])('writes %i as the IMF-fixdate %j, which reads back', (ms, text) => {
    expect(formatHttpDate(ms)).toBe(text)
    expect(isImfFixdate(text)).toBe(true)
    expect(parseHttpDate(text)).toBe(Math.floor(ms / 1000) * 1000)
  })
})

describe('isRelativeUri and isAbsoluteHttpUrl', () => {
  it.each([
    ['/fitnessActivities', true],
    ['/fitnessActivities/17?page=2&pageSize=4#top', true],
    ['/', true],
    ['/a%20b', true],
    ['fitnessActivities', false],
    ['//api.example/fitnessActivities', false],
    ['https://api.example/fitnessActivities', false],
    ['/a b', false],
    ['/a%2', false],
    ['', false],
  ])('isRelativeUri(%j) is %s', (text, expected) => {
    expect(isRelativeUri(text)).toBe(expected)
  })

  it.each([
    ['https://api.example/fitnessActivities?page=1', true],
    ['HTTP://api.example:8080/', true],
    ['ftp://api.example/', false],
    ['/fitnessActivities?page=1', false],
    ['https://', false],
    ['https://api.example/a b', false],
    ['https:\\\\api.example\\', false],
  ])('isAbsoluteHttpUrl(%j) is %s', (text, expected) => {
    expect(isAbsoluteHttpUrl(text)).toBe(expected)
  })
})
