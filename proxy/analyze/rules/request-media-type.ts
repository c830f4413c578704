import { sameMediaType } from '../../../src/validation/media-type.js'
import { mediaTypeOf } from '../../../src/spec/representations.js'
import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'

/** §1 rule 3; §4: reads send Accept, writes send Content-Type, with the representation's media type. */
export const requestMediaType: CheckDefinition = {
  name: 'request-media-type',
  description: 'Accept on reads and Content-Type on writes name the media type of the representation (§1 rule 3).',
  check(view) {
    const endpoint = view.endpoint
    if (endpoint === undefined) return []
    const found = []
    if (endpoint.accept !== undefined) {
      const expected = mediaTypeOf(endpoint.accept)
      const accept = view.request.headers.get('accept')
      // HEAD is a read of headers only; §4 does not say it sends Accept, so it is only noted.
      const kind = endpoint.method === 'HEAD' ? 'note' : 'violation'
      if (accept === undefined) {
        found.push(
          finding(kind, 'request', 'MEDIA-TYPE-ACCEPT', `no Accept header: reads send Accept: ${expected} (§4)`),
        )
      } else if (!accept.flatMap((value) => value.split(',')).some((range) => sameMediaType(range, expected))) {
        found.push(
          finding(
            kind,
            'request',
            'MEDIA-TYPE-ACCEPT',
            `Accept is "${accept.join(', ')}", not ${expected} (§1 rule 3)`,
          ),
        )
      }
    }
    if (endpoint.requestBody !== undefined) {
      const expected = mediaTypeOf(endpoint.requestBody)
      const contentType = headerOf(view.request, 'content-type')
      if (contentType === undefined) {
        found.push(
          finding(
            'violation',
            'request',
            'MEDIA-TYPE-CONTENT-TYPE',
            `no Content-Type header: writes send Content-Type: ${expected} (§1 rule 3)`,
          ),
        )
      } else if (!sameMediaType(contentType, expected)) {
        found.push(
          finding(
            'violation',
            'request',
            'MEDIA-TYPE-CONTENT-TYPE',
            `Content-Type is "${contentType}", not ${expected} (§1 rule 3)`,
          ),
        )
      }
    }
    return found
  },
}
