// Weekday and month names shared by the two date formats (spec-time.ts, http-date.ts).

export const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const
export const monthNames = [
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

export const dayMs = 86_400_000

/** Index of a weekday name, full or three letters, any case; -1 when unknown. */
export function weekdayIndex(name: string): number {
  return indexOfName(weekdayNames, name)
}

/** Index (0–11) of a month name, full or three letters, any case; -1 when unknown. */
export function monthIndex(name: string): number {
  return indexOfName(monthNames, name)
}

function indexOfName(names: readonly string[], name: string): number {
  const wanted = name.toLowerCase()
  return names.findIndex((full) => full.toLowerCase() === wanted || full.slice(0, 3).toLowerCase() === wanted)
}

/**
 * Milliseconds of a UTC calendar time, or undefined when a field is out of range (31 February,
 * hour 24…). Date.UTC would silently roll such values over into the next month or day.
 */
export function utcTime(fields: {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}): number | undefined {
  const { year, month, day, hour, minute, second } = fields
  if (month < 0 || month > 11 || hour > 23 || minute > 59 || second > 59) return undefined
  const ms = Date.UTC(year, month, day, hour, minute, second)
  const check = new Date(ms)
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month || check.getUTCDate() !== day) return undefined
  return ms
}

/** `YYYY-MM-DD` (§4 rule 1 scope parameters) → UTC midnight in ms, or undefined when not a real date. */
export function parseIsoDate(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return undefined
  return utcTime({
    year: Number(match[1]),
    month: Number(match[2]) - 1,
    day: Number(match[3]),
    hour: 0,
    minute: 0,
    second: 0,
  })
}

/** Whole days since 1970-01-01 of a UTC (or zone-less "as if UTC") time. */
export function dayNumber(ms: number): number {
  return Math.floor(ms / dayMs)
}
