import { isImfFixdate } from '../../../src/validation/time-formats.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'
import { finding } from '../findings.js'

/**
 * §4 rule 3: a read (2 or 3) may carry `If-Modified-Since`, "an HTTP date in GMT". A sender generates
 * the IMF-fixdate form (RFC 9110 §5.6.7), `Tue, 01 Mar 2011 07:00:00 GMT`, with the date's weekday.
 * A server ignores an invalid date (RFC 9110 §13.1.3), so the client silently loses its 304s.
 */
export const requestIfModifiedSince: CheckDefinition = {
  name: 'request-if-modified-since',
  description: 'If-Modified-Since, when sent, is an HTTP date in GMT (IMF-fixdate) (§4 rule 3).',
  check(view) {
    const value = headerOf(view.request, 'if-modified-since')
    if (value === undefined || isImfFixdate(value.trim())) return []
    return [
      finding(
        'violation',
        'request',
        'COND-IMS-FORMAT',
        `If-Modified-Since "${value}" is not an HTTP date in GMT such as "Tue, 01 Mar 2011 07:00:00 GMT" (§4 rule 3): a server ignores it (RFC 9110 §13.1.3) and answers in full`,
      ),
    ]
  },
}
