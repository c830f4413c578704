// The start-time format of §2.2: `<weekday>, <day> <month> <year> <HH:MM:SS>`, e.g.
// `Tue, 1 Mar 2011 07:00:00`. It carries no time zone, so times are zone-less wall-clock values
// kept as milliseconds "as if UTC" (model.ts Activity.startTime).
import { monthIndex, monthNames, utcTime, weekdayIndex, weekdayNames } from './calendar.js'

export type SpecTimeParse = { ok: true; time: number } | { ok: false; problem: string }

/** Formats as the samples do: three-letter names, day without a leading zero. */
export function formatSpecTime(time: number): string {
  const date = new Date(time)
  const weekday = weekdayNames[date.getUTCDay()]?.slice(0, 3)
  const month = monthNames[date.getUTCMonth()]?.slice(0, 3)
  const clock = [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':')
  return `${weekday}, ${date.getUTCDate()} ${month} ${date.getUTCFullYear()} ${clock}`
}

/**
 * Parses the §2.2 format. Accepts full or three-letter weekday and month names in any case and a
 * day with or without a leading zero (clients print dates in many ways); rejects impossible dates
 * and a weekday that does not match the date, because either means the client computed it wrongly.
 */
export function parseSpecTime(text: string): SpecTimeParse {
  const match = /^\s*([A-Za-z]+),\s+(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*$/.exec(text)
  if (!match)
    return {
      ok: false,
      problem: `"${text}" is not in the form <weekday>, <day> <month> <year> <HH:MM:SS>, e.g. "Tue, 1 Mar 2011 07:00:00" (§2.2)`,
    }
  const [, weekdayText = '', day, monthText = '', year, hour, minute, second] = match
  const weekday = weekdayIndex(weekdayText)
  const month = monthIndex(monthText)
  if (weekday < 0) return { ok: false, problem: `"${weekdayText}" is not a weekday name` }
  if (month < 0) return { ok: false, problem: `"${monthText}" is not a month name` }
  const time = utcTime({
    year: Number(year),
    month,
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  })
  if (time === undefined) return { ok: false, problem: `"${text}" is not a real date and time` }
  if (new Date(time).getUTCDay() !== weekday) {
    return {
      ok: false,
      problem: `"${text}": ${day} ${monthText} ${year} is a ${weekdayNames[new Date(time).getUTCDay()]}, not a ${weekdayNames[weekday]}`,
    }
  }
  return { ok: true, time }
}
