import { sameMediaType } from '../../../src/validation/media-type.js'
import { mediaTypeOf, type RepresentationName } from '../../../src/spec/representations.js'
import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'

/**
 * §1 rule 3: responses name their representation in Content-Type; §7: 403 bodies are ErrorMessage,
 * and "the structured error body is used only for 403 Forbidden", so no other status carries it.
 */
export const responseMediaType: CheckDefinition = {
  name: 'response-media-type',
  description:
    'Content-Type of a success body (and of HEAD) and of a 403 names the representation; only a 403 is an ErrorMessage (§1 rule 3, §7).',
  check(view) {
    const endpoint = view.endpoint
    const response = view.response
    if (endpoint === undefined || response === undefined) return []
    let expected: RepresentationName | undefined
    let rule: string | undefined
    if (response.status === 403) {
      expected = 'ErrorMessage'
      rule = 'ERROR-MEDIA-TYPE'
    } else if (response.status === 200 && endpoint.method === 'HEAD') {
      expected = 'FitnessActivity'
      rule = 'HEAD-HEADERS'
    } else if (response.status === 200 && endpoint.responseBody !== undefined) {
      expected = endpoint.responseBody
      rule = 'MEDIA-TYPE-RESPONSE'
    }
    const contentType = headerOf(response, 'content-type')
    if (
      response.status !== 403 &&
      contentType !== undefined &&
      sameMediaType(contentType, mediaTypeOf('ErrorMessage'))
    ) {
      return [
        finding(
          'violation',
          'response',
          'ERROR-MEDIA-TYPE',
          `a ${response.status} answer carries the ErrorMessage media type, which §7 uses only for 403 Forbidden`,
        ),
      ]
    }
    if (expected === undefined) return []
    const mediaType = mediaTypeOf(expected)
    if (contentType === undefined)
      return [finding('violation', 'response', rule, `no Content-Type; expected ${mediaType}`)]
    if (!sameMediaType(contentType, mediaType))
      return [finding('violation', 'response', rule, `Content-Type is "${contentType}", not ${mediaType}`)]
    return []
  },
}
