// The three forms of an HTTP date that RFC 9110 §5.6.7 says a recipient MUST accept: IMF-fixdate,
// and the obsolete RFC 850 and asctime forms. The survey sends each in If-Modified-Since.
import { formatHttpDate } from '../../validation/time-formats.js'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

export type HttpDateForm = 'IMF-fixdate' | 'RFC 850' | 'asctime'

export const HTTP_DATE_FORMS: readonly HttpDateForm[] = ['IMF-fixdate', 'RFC 850', 'asctime']

/** @example formatHttpDateAs(784111777000, 'RFC 850') // 'Sunday, 06-Nov-94 08:49:37 GMT' */
export function formatHttpDateAs(ms: number, form: HttpDateForm): string {
  if (form === 'IMF-fixdate') return formatHttpDate(ms)
  const date = new Date(ms)
  const two = (n: number): string => String(n).padStart(2, '0')
  const clock = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`
  const month = MONTHS[date.getUTCMonth()]
  const weekday = WEEKDAYS[date.getUTCDay()]!
  if (form === 'RFC 850')
    return `${weekday}, ${two(date.getUTCDate())}-${month}-${two(date.getUTCFullYear() % 100)} ${clock} GMT`
  return `${weekday.slice(0, 3)} ${month} ${String(date.getUTCDate()).padStart(2, ' ')} ${clock} ${date.getUTCFullYear()}`
}
