import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'

/**
 * §4 endpoints 4, 5, 8, 9 and rule 3: 201, 204, 304 and HEAD responses carry no body. Only a 204
 * (or a 1xx) may not announce one: a 304 and a HEAD answer may carry the Content-Length and
 * Transfer-Encoding a 200 would have had (RFC 9110 §8.6, RFC 9112 §6.1).
 */
export const responseNoBody: CheckDefinition = {
  name: 'response-no-body',
  description:
    'No body on a create (201), 204, 304 or HEAD; no Content-Length but 0 on a 204, no Transfer-Encoding on a 1xx or 204 (RFC 9110 §8.6, RFC 9112 §6.1).',
  check(view) {
    const endpoint = view.endpoint
    const response = view.response
    if (endpoint === undefined || response === undefined) return []
    const rule = ruleFor(endpoint.method, response.status, endpoint)
    const found = []
    if (rule !== undefined && response.body.size > 0) {
      found.push(
        finding(
          'violation',
          'response',
          rule,
          `${describe(endpoint.method, response.status)} has a body of ${response.body.size} bytes; §4 says no body`,
        ),
      )
    }
    const contentLength = headerOf(response, 'content-length')
    if (rule !== undefined && response.status === 204 && contentLength !== undefined && contentLength.trim() !== '0') {
      found.push(
        finding(
          'violation',
          'response',
          rule,
          `204 with Content-Length: ${contentLength} announces a body (RFC 9110 §8.6)`,
        ),
      )
    }
    if (isNeverChunked(response.status) && headerOf(response, 'transfer-encoding') !== undefined) {
      found.push(
        finding(
          'violation',
          'response',
          rule,
          `${response.status} with Transfer-Encoding (RFC 9112 §6.1: never on a 1xx or 204)`,
        ),
      )
    }
    return found
  },
}

function isNeverChunked(status: number): boolean {
  return status === 204 || (status >= 100 && status < 200)
}

function ruleFor(
  method: string,
  status: number,
  endpoint: { noBodyRule?: string; conditional?: { notModified: string } },
): string | undefined {
  if (method === 'HEAD') return 'HEAD-NO-BODY'
  if (status === 304) return endpoint.conditional?.notModified
  if (status === 204 || status === 201) return endpoint.noBodyRule
  return undefined
}

function describe(method: string, status: number): string {
  return method === 'HEAD' ? 'a HEAD response' : `a ${status} response`
}
