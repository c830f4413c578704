import { isImfFixdate, isRelativeUri } from '../../../src/validation/time-formats.js'
import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'
import { endpointAt } from '../../../src/spec/endpoints.js'

/** The path of one activity (§4 endpoint 3), the form a create's Location is expected in. */
const ONE_ACTIVITY = endpointAt(3).pattern

/** §2.3 Last-Modified (read, edit, HEAD), §4 endpoint 4 Location, §4 endpoint 9 Content-Length. */
export const responseHeaders: CheckDefinition = {
  name: 'response-headers',
  description:
    'Last-Modified is an IMF-fixdate where §2.3 requires it; a create gives a relative Location; HEAD has Content-Length.',
  check(view) {
    const endpoint = view.endpoint
    const response = view.response
    if (endpoint === undefined || response === undefined) return []
    const found = []
    if (endpoint.lastModifiedRule !== undefined && response.status === 200) {
      const lastModified = headerOf(response, 'last-modified')
      if (lastModified === undefined) {
        found.push(
          finding(
            'violation',
            'response',
            endpoint.lastModifiedRule,
            'no Last-Modified header (§2.3: on read, edit and HEAD of an activity)',
          ),
        )
      } else if (!isImfFixdate(lastModified)) {
        found.push(
          finding(
            'violation',
            'response',
            endpoint.lastModifiedRule,
            `Last-Modified "${lastModified}" is not an HTTP date in GMT (IMF-fixdate, §2.3)`,
          ),
        )
      }
    }
    if (endpoint.row === 4 && response.status === 201) {
      const location = headerOf(response, 'location')
      if (location === undefined)
        found.push(finding('violation', 'response', 'CREATE-LOCATION', 'no Location header on 201 (§4 endpoint 4)'))
      else if (!isRelativeUri(location)) {
        found.push(
          finding(
            'violation',
            'response',
            'CREATE-LOCATION',
            `Location "${location}" is not a relative URI (§4 endpoint 4)`,
          ),
        )
      } else if (!ONE_ACTIVITY.test(location)) {
        found.push(
          finding(
            'note',
            'response',
            'CREATE-LOCATION',
            `Location "${location}" is relative but not of the /fitnessActivities/<id> form of §2.3`,
          ),
        )
      }
    }
    if (endpoint.row === 9 && response.status === 200 && headerOf(response, 'content-length') === undefined) {
      found.push(
        finding(
          'violation',
          'response',
          'HEAD-HEADERS',
          'HEAD without Content-Length (§4 endpoint 9: Content-Type, Content-Length, Last-Modified)',
        ),
      )
    }
    return found
  },
}
