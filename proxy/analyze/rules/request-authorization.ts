import { finding } from '../findings.js'
import type { CheckDefinition } from '../exchange-view.js'

/** §5 rule 1; §4: every request carries `Authorization: Bearer <ACCESS_TOKEN>`. */
export const requestAuthorization: CheckDefinition = {
  name: 'request-authorization',
  description: 'The request carries Authorization with the Bearer scheme and a token (§5 rule 1).',
  check(view) {
    const values = view.request.headers.get('authorization') ?? []
    const value = values[0]
    if (value === undefined) {
      return [
        finding(
          'violation',
          'request',
          'AUTH-BEARER-SENT',
          'no Authorization header: §5 rule 1 says every request carries Authorization: Bearer <ACCESS_TOKEN>',
        ),
      ]
    }
    if (values.length > 1)
      return [
        finding('violation', 'request', 'AUTH-BEARER-SENT', `${values.length} Authorization headers; one is expected`),
      ]
    const match = /^([A-Za-z][A-Za-z0-9-]{0,19})(\s+\S|$)/.exec(value.trim())
    // Only the scheme word is ever shown: the rest of the value is the secret.
    if (match?.[1]?.toLowerCase() === 'bearer') {
      return match[2] === ''
        ? [finding('violation', 'request', 'AUTH-BEARER-SENT', 'Authorization: Bearer carries no token')]
        : []
    }
    const scheme = match === null ? 'no scheme' : `the ${match[1]} scheme`
    return [finding('violation', 'request', 'AUTH-BEARER-SENT', `Authorization uses ${scheme}, not Bearer (§5 rule 1)`)]
  },
}
