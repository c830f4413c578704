import { finding } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'

/** §4 endpoints 4, 5, 8, 9 and rule 3: 201, 204, 304 and HEAD responses carry no body. */
export const responseNoBody: CheckDefinition = {
  name: 'response-no-body',
  description: 'No body on a create (201), 204, 304 or HEAD, and no header announcing one (RFC 9110 §8.6).',
  check(view) {
    const endpoint = view.endpoint
    const response = view.response
    if (endpoint === undefined || response === undefined) return []
    const rule = ruleFor(endpoint.method, response.status, endpoint)
    if (rule === undefined) return []
    const found = []
    if (response.body.size > 0) {
      found.push(finding('violation', 'response', rule, `${describe(endpoint.method, response.status)} has a body of ${response.body.size} bytes; §4 says no body`))
    }
    const contentLength = headerOf(response, 'content-length')
    if (response.status === 204 && contentLength !== undefined && contentLength.trim() !== '0') {
      found.push(finding('violation', 'response', rule, `204 with Content-Length: ${contentLength} announces a body (RFC 9110 §8.6)`))
    }
    if ((response.status === 204 || response.status === 304) && headerOf(response, 'transfer-encoding') !== undefined) {
      found.push(finding('violation', 'response', rule, `${response.status} with Transfer-Encoding announces a body`))
    }
    return found
  },
}

function ruleFor(method: string, status: number, endpoint: { noBodyRule?: string; conditional?: { notModified: string } }): string | undefined {
  if (method === 'HEAD') return 'HEAD-NO-BODY'
  if (status === 304) return endpoint.conditional?.notModified
  if (status === 204 || status === 201) return endpoint.noBodyRule
  return undefined
}

function describe(method: string, status: number): string {
  return method === 'HEAD' ? 'a HEAD response' : `a ${status} response`
}
