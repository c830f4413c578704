import { finding } from '../findings.js'
import type { CheckDefinition } from '../exchange-view.js'

/** §4 rule 1 parameters, plus `page`, which §2.2 says the `previous` link carries. */
const FEED_PARAMETERS: Readonly<Record<string, 'integer' | 'date' | 'any'>> = {
  pageSize: 'integer',
  noEarlierThan: 'date',
  noLaterThan: 'date',
  modifiedNoEarlierThan: 'date',
  modifiedNoLaterThan: 'date',
  page: 'any',
}

/** §4 rule 1: the query parameters of a feed read. The rule catalogue has no client rule for them: notes. */
export const requestQuery: CheckDefinition = {
  name: 'request-query',
  description: 'Feed reads use the parameters of §4 rule 1 in their stated formats; other endpoints take none.',
  check(view) {
    const endpoint = view.endpoint
    if (endpoint === undefined || view.query.length === 0) return []
    if (endpoint.row !== 2) {
      return [
        finding(
          'note',
          'request',
          undefined,
          `§4 names no query parameters for ${endpoint.method} ${endpoint.path}; sent: ${view.query.map(([name]) => name).join(', ')}`,
        ),
      ]
    }
    const found = []
    for (const [name, value] of view.query) {
      const kind = FEED_PARAMETERS[name]
      if (kind === undefined)
        found.push(finding('note', 'request', undefined, `query parameter "${name}" is not one of §4 rule 1`))
      else if (kind === 'integer' && !/^[1-9][0-9]*$/.test(value)) {
        found.push(finding('note', 'request', undefined, `${name}=${value} is not a positive integer (§4 rule 1)`))
      } else if (kind === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        found.push(
          finding('note', 'request', undefined, `${name}=${value} is not a date in the YYYY-MM-DD form of §4 rule 1`),
        )
      }
    }
    return found
  },
}
