import type { RequestTemplate } from '../../model/scenario.js'
import type { Scope } from '../../expression/evaluate-expression.js'
import { renderTemplate } from '../../expression/render-template.js'
import { mediaTypeOfNameOrType } from '../../spec/representations.js'
import type { IncomingResponse, OutgoingRequest } from './http-exchange.js'
import { resolveUrl } from './resolve-url.js'
import { authorizationFor, type RunContext } from '../run-context.js'
import { parseJsonOrUndefined } from '../../shared/parse-json.js'

export interface PreparedRequest {
  readonly outgoing: OutgoingRequest
  readonly rebasedFrom?: string
}

/** Renders a request template against the variables; throws UndefinedPlaceholderError for a missing one. */
export function prepareRequest(
  template: RequestTemplate,
  scope: Scope,
  context: RunContext,
  urlOverride?: string,
): PreparedRequest {
  const query = urlOverride ? {} : (renderTemplate(template.query, scope) as Record<string, string>)
  const target = urlOverride ?? String(renderTemplate(template.url, scope))
  const { url, rebasedFrom } = resolveUrl(target, context.baseUrl, query)
  const headers: Record<string, string> = {}
  if (template.accept) headers['accept'] = mediaTypeOfNameOrType(template.accept)
  if (template.contentType) headers['content-type'] = mediaTypeOfNameOrType(template.contentType)
  else if (template.json !== undefined) headers['content-type'] = 'application/json'
  // Bodies are judged as sent; a scenario may still ask for another coding with its own header.
  headers['accept-encoding'] = 'identity'
  const authorization = authorizationFor(template.auth, context)
  if (authorization) headers['authorization'] = authorization
  for (const [name, value] of Object.entries(renderTemplate(template.headers, scope) as Record<string, unknown>)) {
    headers[name] = String(value)
  }
  const body =
    template.json !== undefined
      ? JSON.stringify(renderTemplate(template.json, scope))
      : template.body !== undefined
        ? String(renderTemplate(template.body, scope))
        : undefined
  return {
    outgoing: { method: template.method, url, headers, body, wire: template.wire },
    rebasedFrom,
  }
}

/** The names checks and captures see for one response (docs/scenario-format.md § Expressions). */
export function responseScope(response: IncomingResponse, url: string): Scope {
  const bodyText = response.body.toString('utf8')
  return {
    status: response.status,
    headers: response.headers,
    body: parseJsonOrUndefined(bodyText),
    bodyText,
    bodyBytes: response.wireBytes,
    url,
  }
}
