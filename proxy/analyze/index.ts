/**
 * All analyzer rules in order, and `analyzeExchange`, the one entry point: view → findings. The rules
 * judge one exchange; the relations (relations/) judge it against the exchanges seen before it.
 */
import type { Finding } from '../../src/model/exchange.js'
import { methodsForPath } from '../../src/spec/endpoints.js'
import type { CheckDefinition, ExchangeView } from './exchange-view.js'
import { finding } from './findings.js'
import type { ObservedRelations } from './relations/observed-relations.js'
import { conditionalAnswer } from './rules/conditional-answer.js'
import { feedPage } from './rules/feed-page.js'
import { requestAuthorization } from './rules/request-authorization.js'
import { requestBody } from './rules/request-body.js'
import { requestIfModifiedSince } from './rules/request-if-modified-since.js'
import { requestMediaType } from './rules/request-media-type.js'
import { requestQuery } from './rules/request-query.js'
import { responseBody } from './rules/response-body.js'
import { responseHeaders } from './rules/response-headers.js'
import { responseMediaType } from './rules/response-media-type.js'
import { responseNoBody } from './rules/response-no-body.js'
import { responseStatus } from './rules/response-status.js'

const CHECKS: readonly CheckDefinition[] = [
  // the request a client sends
  requestAuthorization,
  requestMediaType,
  requestQuery,
  requestIfModifiedSince,
  requestBody,
  // the response a server gives
  responseStatus,
  responseMediaType,
  responseHeaders,
  responseNoBody,
  responseBody,
  conditionalAnswer,
  feedPage,
]

/**
 * Every finding of one exchange; an exchange outside §4 gets an `unknown-endpoint` finding, the auth
 * check and its body validated by the media type it names. With `relations`, the exchange is also
 * judged against (and remembered for) the exchanges of the same session.
 */
export function analyzeExchange(view: ExchangeView, relations?: ObservedRelations): Finding[] {
  if (view.endpoint === undefined)
    return [unknownEndpoint(view), ...requestAuthorization.check(view), ...responseBody.check(view)]
  const found = CHECKS.flatMap((check) => check.check(view))
  if (relations !== undefined) found.push(...relations.observe(view))
  return found
}

function unknownEndpoint(view: ExchangeView): Finding {
  const methods = methodsForPath(view.path)
  let message = `no endpoint of §4 is ${view.method} ${view.path}`
  if (methods.length > 0) message += `; §4 lists ${methods.join(', ')} for this path`
  else if (/^\/activities\/[^/]+$/.test(view.path)) {
    message +=
      '; /activities/<id> is the irregular feed item uri of §2.2, activities are read at /fitnessActivities/<id>'
  }
  return finding('unknown-endpoint', 'request', undefined, message)
}
