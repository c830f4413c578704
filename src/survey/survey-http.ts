// The survey's one way to the server: a GET or HEAD, recorded as a step records it, so reports show
// the survey's evidence like any scenario's. Only GET and HEAD exist here.
import { ServerBusyError } from '../execute/http/busy-retry.js'
import { curlLine } from '../execute/http/curl-line.js'
import { resolveUrl } from '../execute/http/resolve-url.js'
import { authorizationFor, type RunContext } from '../execute/run-context.js'
import { parseJsonOrUndefined } from '../shared/parse-json.js'
import { mediaTypeOf } from '../spec/representations.js'
import type { RecordedRequest } from '../model/result.js'
import type { SurveyExchange, SurveyRequest } from '../spec/survey/survey-exchange.js'

/** Sends one read. A transport failure comes back as an exchange with status 0 and `error`. */
export async function surveySend(context: RunContext, request: SurveyRequest): Promise<SurveyExchange> {
  const { url } = resolveUrl(request.target, context.baseUrl, request.query ?? {})
  const headers: Record<string, string> = { 'accept-encoding': 'identity' }
  if (request.accept) headers['accept'] = mediaTypeOf(request.accept)
  const auth = request.auth ?? 'token'
  const authorization = authorizationFor(auth, context)
  if (authorization) headers['authorization'] = authorization
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value
  // HEAD goes on a raw socket, as the scenarios send it, so a body the server should not send is seen.
  const outgoing = { method: request.method, url, headers, wire: request.method === 'HEAD' }
  const recorded: RecordedRequest = { method: request.method, url, headers }
  const curl = curlLine(outgoing, auth)
  try {
    const response = await context.client.send(outgoing)
    const text = response.body.toString('utf8')
    return {
      request: recorded,
      curl,
      status: response.status,
      headers: response.headers,
      body: parseJsonOrUndefined(text),
      wireBytes: response.wireBytes,
      bodyBytes: response.body.length,
    }
  } catch (error) {
    const message = `${request.method} ${url} got no answer: ${error instanceof Error ? error.message : String(error)}`
    const code = error instanceof ServerBusyError ? 'E_SERVER_BUSY' : 'E_TRANSPORT'
    return {
      request: recorded,
      curl,
      status: 0,
      headers: {},
      body: undefined,
      wireBytes: 0,
      bodyBytes: 0,
      error: { code, kind: 'error', message },
    }
  }
}
