// HTTP dates (RFC 9110 §5.6.7) for Last-Modified, Date and If-Modified-Since (§2.3, §4 rule 3).
import { monthIndex, utcTime, weekdayIndex } from '../representations/calendar.js'

/** A time as an HTTP date shows it: milliseconds dropped. */
export function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000
}

/** IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT` (what toUTCString prints). */
export function formatHttpDate(time: number): string {
  return new Date(time).toUTCString()
}

/**
 * Parses the three forms a recipient must accept (RFC 9110 §5.6.7): IMF-fixdate, the obsolete
 * RFC 850 form and asctime. Returns undefined for anything else, which callers treat as absent
 * (RFC 9110 §13.1.3: an invalid If-Modified-Since is ignored). Date.parse is not used because it
 * accepts far more than HTTP dates (`2026-01-01`, local times…).
 */
export function parseHttpDate(text: string): number | undefined {
  const value = text.trim()
  let match = /^([A-Za-z]{3}), (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(value)
  if (match) return build(match[1], match[4], match[3], match[2], match.slice(5))
  match = /^([A-Za-z]{6,9}), (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(value)
  if (match) return build(match[1], expandTwoDigitYear(Number(match[4])), match[3], match[2], match.slice(5))
  match = /^([A-Za-z]{3}) ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(value)
  if (match) return build(match[1], match[7], match[2], match[3], match.slice(4, 7))
  return undefined
}

function build(
  weekday: string | undefined,
  year: string | number | undefined,
  month: string | undefined,
  day: string | undefined,
  clock: (string | undefined)[],
): number | undefined {
  if (weekdayIndex(weekday ?? '') < 0) return undefined
  const monthNumber = monthIndex(month ?? '')
  if (monthNumber < 0) return undefined
  const [hour, minute, second] = clock.map(Number)
  return utcTime({
    year: Number(year),
    month: monthNumber,
    day: Number(day),
    hour: hour ?? NaN,
    minute: minute ?? NaN,
    second: second ?? NaN,
  })
}

/** RFC 9110: a two-digit year more than 50 years in the future means the most recent past such year. */
function expandTwoDigitYear(twoDigits: number): number {
  const thisYear = new Date().getUTCFullYear()
  let year = Math.floor(thisYear / 100) * 100 + twoDigits
  if (year > thisYear + 50) year -= 100
  return year
}
