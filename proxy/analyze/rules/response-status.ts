import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'

/** §4's table of success statuses, §4 rule 3 (304), §5 rule 3 and §7 (403), §7 rules 5–6 (others). */
export const responseStatus: CheckDefinition = {
  name: 'response-status',
  description: 'The status is one §4 names for the endpoint, 403 (§7), or an error status §7 leaves open.',
  check(view) {
    const endpoint = view.endpoint
    const status = view.response?.status
    if (endpoint === undefined || status === undefined) return []
    const named = endpoint.success.join(' or ')
    if (status === 304 && endpoint.conditional !== undefined) {
      if (headerOf(view.request, 'if-modified-since') !== undefined) return []
      if (headerOf(view.request, 'if-none-match') !== undefined) {
        return [
          finding(
            'note',
            'response',
            endpoint.conditional.notModified,
            '304 for If-None-Match: §4 rule 3 only describes If-Modified-Since',
          ),
        ]
      }
      return [
        finding(
          'violation',
          'response',
          endpoint.conditional.modified,
          '304 to a read without If-Modified-Since: §4 rule 3 says the normal response is returned',
        ),
      ]
    }
    // RFC 9110 §13.1.3 lets HEAD be conditional like GET: a 304 is judged against what GET would
    // answer (rules/conditional-answer.ts, relations/conditional-history.ts), not refused outright.
    if (status === 304 && endpoint.row === 9 && headerOf(view.request, 'if-modified-since') !== undefined) return []
    if (endpoint.success.includes(status) || status === 403) return []
    if (status >= 200 && status < 400) {
      return [
        finding(
          'violation',
          'response',
          endpoint.statusRule,
          `status ${status}; §4 endpoint ${endpoint.row} answers ${named}`,
        ),
      ]
    }
    if (status >= 500) {
      return [
        finding(
          'note',
          'response',
          'ERROR-CLIENT-NOT-5XX',
          `status ${status}: §7 rule 5 expects errors to point at the client; a 5xx names none`,
        ),
      ]
    }
    return [
      finding('note', 'response', undefined, `status ${status} is not named by §4 (§7 rule 6 leaves other codes open)`),
    ]
  },
}
