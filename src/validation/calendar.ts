// English day and month names and a checked UTC date builder, shared by the text formats in
// time-formats.ts. Index 0 of WEEKDAYS is Sunday, as in Date#getUTCDay.

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

/** The fields of a wall-clock time; month is 0-based, second may be 60 only where a format allows leap seconds. */
export interface WallTime {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

/** Index of `name` in `names`, matching the full name or its first three letters; undefined when neither. */
export function indexOfName(
  names: readonly string[],
  name: string,
  options: { caseSensitive: boolean; allowFull: boolean; allowShort: boolean },
): number | undefined {
  const fold = (s: string): string => (options.caseSensitive ? s : s.toLowerCase())
  const wanted = fold(name)
  const index = names.findIndex(
    (full) => (options.allowFull && fold(full) === wanted) || (options.allowShort && fold(full.slice(0, 3)) === wanted),
  )
  return index < 0 ? undefined : index
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; 2000 is a leap year, 2001 is not.
  return new Date(Date.UTC(isLeapYear(year) ? 2000 : 2001, month + 1, 0)).getUTCDate()
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

/** Epoch milliseconds of a wall time read as UTC, or undefined when it is not a real calendar time. */
export function utcMillis(time: WallTime, maxSecond = 59): number | undefined {
  const { year, month, day, hour, minute, second } = time
  if (month < 0 || month > 11 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > maxSecond) return undefined
  // setUTCFullYear, unlike Date.UTC, does not map the years 0–99 onto 1900–1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month, day)
  date.setUTCHours(hour, minute, second, 0)
  return date.getTime()
}

/** The UTC fields of an epoch-millisecond time; throws a RangeError for a value that is not a valid time. */
export function wallTimeOf(ms: number): WallTime & { weekday: number } {
  const date = new Date(ms)
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a valid time value: ${ms}`)
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth(),
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    weekday: date.getUTCDay(),
  }
}

export function twoDigits(n: number): string {
  return String(n).padStart(2, '0')
}
