// The text formats the schemas and checks rely on: the spec's start time (§2.2), HTTP dates
// (Last-Modified, If-Modified-Since; §2.3, §4 rule 3, RFC 9110 §5.6.7) and the two kinds of link
// (relative URIs of §2.1–2.3, the feed's absolute `previous` URL of §2.2).
import { indexOfName, MONTHS, twoDigits, utcMillis, wallTimeOf, WEEKDAYS, type WallTime } from './calendar.js'

// §2.2: `<weekday>, <day> <month> <year> <HH:MM:SS>`. Names may be full or three letters, in any
// case; the day may have a leading zero. The format names the day of the week of that date, so a
// weekday that is not the date's is wrong (as RFC 5322 §3.3 says of HTTP dates' day-of-week).
const SPEC_TIME = /^([A-Za-z]+), (\d{1,2}) ([A-Za-z]+) (\d{4}) (\d{2}):(\d{2}):(\d{2})$/
const SPEC_NAMES = { caseSensitive: false, allowFull: true, allowShort: true }

/**
 * Epoch milliseconds of a §2.2 start time, reading the wall time as UTC; undefined when malformed
 * or when the weekday is not that date's.
 * @example parseSpecTime('Tue, 1 Mar 2011 07:00:00') // 1298962800000
 */
export function parseSpecTime(text: string): number | undefined {
  const match = SPEC_TIME.exec(text)
  if (!match) return undefined
  const [, weekday = '', day = '', month = '', year = '', hour = '', minute = '', second = ''] = match
  const weekdayIndex = indexOfName(WEEKDAYS, weekday, SPEC_NAMES)
  const monthIndex = indexOfName(MONTHS, month, SPEC_NAMES)
  if (weekdayIndex === undefined || monthIndex === undefined) return undefined
  const ms = utcMillis({ year: +year, month: monthIndex, day: +day, hour: +hour, minute: +minute, second: +second })
  return ms !== undefined && wallTimeOf(ms).weekday === weekdayIndex ? ms : undefined
}

/**
 * A §2.2 start time with three-letter names and no leading zero on the day.
 * @example formatSpecTime(410227200000) // 'Sat, 1 Jan 1983 00:00:00'
 */
export function formatSpecTime(ms: number): string {
  const t = wallTimeOf(ms)
  const clock = `${twoDigits(t.hour)}:${twoDigits(t.minute)}:${twoDigits(t.second)}`
  return `${short(WEEKDAYS, t.weekday)}, ${t.day} ${short(MONTHS, t.month)} ${String(t.year).padStart(4, '0')} ${clock}`
}

// RFC 9110 §5.6.7: HTTP-date is case-sensitive; the seconds run to 60 for a leap second.
const CLOCK = String.raw`(?<hour>\d{2}):(?<minute>\d{2}):(?<second>\d{2})`
const IMF_FIXDATE = new RegExp(
  String.raw`^(?<weekday>[A-Z][a-z]{2}), (?<day>\d{2}) (?<month>[A-Z][a-z]{2}) (?<year>\d{4}) ${CLOCK} GMT$`,
)
const HTTP_DATE_FORMS = [
  IMF_FIXDATE,
  // obsolete RFC 850 form: full weekday, two-digit year
  new RegExp(
    String.raw`^(?<weekday>[A-Z][a-z]+day), (?<day>\d{2})-(?<month>[A-Z][a-z]{2})-(?<year>\d{2}) ${CLOCK} GMT$`,
  ),
  // obsolete asctime form: day padded with a space
  new RegExp(String.raw`^(?<weekday>[A-Z][a-z]{2}) (?<month>[A-Z][a-z]{2}) (?<day> \d|\d{2}) ${CLOCK} (?<year>\d{4})$`),
]

interface HttpDateReading {
  readonly weekday: number
  readonly time: WallTime
}

/**
 * IMF-fixdate readings by their text (they do not depend on the present, as a two-digit year does):
 * a server's Date and Last-Modified come again exchange after exchange, and the proxy reads both.
 */
const imfReadings = new Map<string, HttpDateReading>()
const MOST_IMF_READINGS = 1024

function readHttpDate(text: string, nowMs: number): HttpDateReading | undefined {
  const known = imfReadings.get(text)
  if (known !== undefined) return known
  let g: Record<string, string | undefined> | undefined
  // The first form that matches: most dates are IMF-fixdate, and the other two need not be tried.
  for (const form of HTTP_DATE_FORMS) if ((g = form.exec(text)?.groups) !== undefined) break
  if (!g) return undefined
  const reading = readDateGroups(g, nowMs)
  if (reading !== undefined && IMF_FIXDATE.test(text)) {
    if (imfReadings.size >= MOST_IMF_READINGS) imfReadings.clear()
    imfReadings.set(text, reading)
  }
  return reading
}

function readDateGroups(g: Record<string, string | undefined>, nowMs: number): HttpDateReading | undefined {
  const weekdayName = g.weekday ?? ''
  const weekday = indexOfName(WEEKDAYS, weekdayName, {
    caseSensitive: true,
    allowFull: weekdayName.length > 3,
    allowShort: weekdayName.length === 3,
  })
  const month = indexOfName(MONTHS, g.month ?? '', { caseSensitive: true, allowFull: false, allowShort: true })
  if (weekday === undefined || month === undefined) return undefined
  const year = (g.year ?? '').length === 2 ? fullYear(Number(g.year), nowMs) : Number(g.year)
  const time = {
    year,
    month,
    day: Number(g.day),
    hour: Number(g.hour),
    minute: Number(g.minute),
    second: Number(g.second),
  }
  return utcMillis(time, 60) === undefined ? undefined : { weekday, time }
}

// RFC 9110 §5.6.7: a two-digit year that appears more than 50 years in the future is the most
// recent past year with the same last two digits. Symmetrically, one more than 50 years in the
// past is taken as the next such year, so the result is always within 50 years of now.
function fullYear(twoDigitYear: number, nowMs: number): number {
  const nowYear = new Date(nowMs).getUTCFullYear()
  const candidate = Math.floor(nowYear / 100) * 100 + twoDigitYear
  if (candidate > nowYear + 50) return candidate - 100
  return candidate <= nowYear - 50 ? candidate + 100 : candidate
}

/**
 * Epoch milliseconds of an HTTP date in any of the three forms RFC 9110 §5.6.7 says a recipient
 * must accept (IMF-fixdate, RFC 850, asctime); undefined otherwise. The weekday is not checked.
 * @example parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT') // 784111777000
 */
export function parseHttpDate(text: string, nowMs: number = Date.now()): number | undefined {
  const parsed = readHttpDate(text, nowMs)
  return parsed && utcMillis(parsed.time, 60)
}

/**
 * True for the IMF-fixdate form a server must send (RFC 9110 §5.6.7) naming a real date and,
 * as RFC 5322 §3.3 requires of the day-of-week, the weekday of that date.
 */
export function isImfFixdate(text: string): boolean {
  const parsed = IMF_FIXDATE.test(text) ? readHttpDate(text, Date.now()) : undefined
  if (!parsed) return false
  const midnight = utcMillis({ ...parsed.time, hour: 0, minute: 0, second: 0 }) ?? NaN
  return wallTimeOf(midnight).weekday === parsed.weekday
}

/**
 * The IMF-fixdate form of a time; milliseconds are dropped.
 * @example formatHttpDate(784111777000) // 'Sun, 06 Nov 1994 08:49:37 GMT'
 */
export function formatHttpDate(ms: number): string {
  const t = wallTimeOf(ms)
  const clock = `${twoDigits(t.hour)}:${twoDigits(t.minute)}:${twoDigits(t.second)}`
  return `${short(WEEKDAYS, t.weekday)}, ${twoDigits(t.day)} ${short(MONTHS, t.month)} ${String(t.year).padStart(4, '0')} ${clock} GMT`
}

function short(names: readonly string[], index: number): string {
  return (names[index] ?? '').slice(0, 3)
}

// RFC 3986 characters of a path segment (pchar) and, with "/" and "?", of a query or fragment.
const PCHAR = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})`
const ABSOLUTE_PATH_REFERENCE = new RegExp(
  String.raw`^/(?!/)(?:${PCHAR}|/)*(?:\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
)

/**
 * True for a URI reference with no scheme and no authority that starts with "/" (§2.1–2.3 links).
 * @example isRelativeUri('/things/17') // true
 */
export function isRelativeUri(text: string): boolean {
  return ABSOLUTE_PATH_REFERENCE.test(text)
}

/**
 * True for an absolute http or https URL with a host (the feed's `previous`, §2.2).
 * @example isAbsoluteHttpUrl('https://api.example/things?page=1') // true
 */
export function isAbsoluteHttpUrl(text: string): boolean {
  // The WHATWG parser forgives spaces and backslashes, so the raw text is checked first.
  if (!/^https?:\/\/[^\s\\]+$/i.test(text)) return false
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
