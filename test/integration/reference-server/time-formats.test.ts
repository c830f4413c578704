// The two date formats the reference server speaks: §2.2 start times and HTTP dates.
import { describe, expect, it } from 'vitest'
import { formatHttpDate, parseHttpDate } from '../../../reference-server/http/http-date.js'
import { formatSpecTime, parseSpecTime } from '../../../reference-server/representations/spec-time.js'

const march1 = Date.UTC(2011, 2, 1, 7, 0, 0)

describe('spec time (§2.2)', () => {
  it('formats like the samples', () => {
    expect(formatSpecTime(march1)).toBe('Tue, 1 Mar 2011 07:00:00')
  })

  it.each(['Tue, 1 Mar 2011 07:00:00', 'Tuesday, 1 March 2011 07:00:00', 'tue, 01 mar 2011 7:00:00'])(
    'parses %s',
    (text) => {
      expect(parseSpecTime(text)).toEqual({ ok: true, time: march1 })
    },
  )

  it.each([
    'Wed, 1 Mar 2011 07:00:00',
    'Tue, 29 Feb 2011 07:00:00',
    '2011-03-01 07:00:00',
    'Tue, 1 Mar 2011 24:00:00',
    'Tue, 1 Mar 2011',
  ])('refuses %s', (text) => {
    expect(parseSpecTime(text).ok).toBe(false)
  })
})

describe('HTTP dates (RFC 9110 §5.6.7)', () => {
  const time = Date.UTC(1994, 10, 6, 8, 49, 37)

  it('formats IMF-fixdate', () => {
    expect(formatHttpDate(time)).toBe('Sun, 06 Nov 1994 08:49:37 GMT')
  })

  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])(
    'parses %s',
    (text) => {
      expect(parseHttpDate(text)).toBe(time)
    },
  )

  it.each(['1994-11-06T08:49:37Z', 'Sun, 06 Nov 1994 08:49:37', 'Sun, 31 Nov 1994 08:49:37 GMT', ''])(
    'refuses %s',
    (text) => {
      expect(parseHttpDate(text)).toBeUndefined()
    },
  )
})
