import { utcMillis } from '../validation/calendar.js'
import { parseHttpDate, parseSpecTime } from '../validation/time-formats.js'

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

/**
 * Any time value a scenario meets, as epoch ms: a number (already ms), the spec's start-time format,
 * an HTTP date, YYYY-MM-DD or ISO 8601. Wall times without a zone (the spec's format) read as UTC so
 * that all of them compare on one axis. Undefined when the text is none of these.
 */
export function toInstant(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  const ymd = YMD.exec(text)
  // 2011-02-31 is not a date: utcMillis says so where Date.UTC would roll it over to 3 March.
  if (ymd)
    return utcMillis({
      year: Number(ymd[1]),
      month: Number(ymd[2]) - 1,
      day: Number(ymd[3]),
      hour: 0,
      minute: 0,
      second: 0,
    })
  if (ISO.test(text)) {
    const parsed = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`)
    return Number.isNaN(parsed) ? undefined : parsed
  }
  return parseSpecTime(text) ?? parseHttpDate(text)
}
