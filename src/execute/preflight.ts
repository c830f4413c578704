import type { Diagnostic } from '../model/diagnostic.js'
import { TOKEN_ROLES, type TokenRole } from '../model/scenario.js'
import { envVarOfRole } from '../plan/plan-run.js'
import { ENTRY_POINT_PATH } from '../spec/paths.js'
import { mediaTypeOf } from '../spec/representations.js'
import { FULL_ACCESS_ROLES } from '../spec/token-roles.js'
import type { IncomingResponse } from './http/http-exchange.js'
import { authorizationFor, type RunContext } from './run-context.js'
import { resolveUrl } from './http/resolve-url.js'
import { transportDiagnostic } from './http/transport-error.js'

const BODY_SHOWN = 200

/**
 * Before the first scenario: `GET /user` (§4 endpoint 1) with each main token must answer 2xx
 * within the timeout. Otherwise one sentence instead of a screen of failures: a refused token, a
 * base URL that is not the API root, a server that does not answer. The body is left to the USER-*
 * scenarios.
 */
export async function preflight(context: RunContext): Promise<Diagnostic | undefined> {
  const roles = FULL_ACCESS_ROLES.filter((role) => context.tokens[role])
  // Without a main token only the scenarios that send none can run: the server must still be there.
  if (roles.length === 0) return reachability(context)
  for (const role of roles) {
    const problem = await preflightRole(role, context)
    if (problem) return problem
  }
  return undefined
}

/**
 * After the preflight: `GET /user` with each revoked or limited token given. Such a token still names
 * its user, so §5 rule 3 and §7 answer it with 403 (or 2xx where no permission is needed). A 401 means
 * the server does not know the token: far likelier a mistyped flag than a server bug, so the run says
 * which flag before that role's scenarios fail. The run goes on: if the token is right, those
 * failures are the server's, and they must still be reported under their rules.
 */
export async function checkRestrictedTokens(context: RunContext): Promise<Diagnostic[]> {
  const notices: Diagnostic[] = []
  for (const role of TOKEN_ROLES.filter((each) => !FULL_ACCESS_ROLES.includes(each) && context.tokens[each])) {
    const notice = await preflightRestrictedRole(role, context)
    if (notice) notices.push(notice)
  }
  return notices
}

async function preflightRestrictedRole(role: TokenRole, context: RunContext): Promise<Diagnostic | undefined> {
  const { url } = resolveUrl(ENTRY_POINT_PATH, context.baseUrl)
  let response: IncomingResponse
  try {
    response = await context.client.send({
      method: 'GET',
      url,
      headers: { authorization: authorizationFor(role, context)!, accept: mediaTypeOf('User') },
      wire: false,
    })
  } catch {
    return undefined // the main token's preflight has shown the server answers; this role's scenarios report their own transport errors
  }
  if (response.status !== 401) return undefined
  const flag = `--${role}`
  return context.redact({
    code: 'E_PREFLIGHT',
    kind: 'error',
    message: `preflight GET ${url} with ${flag}: the token was refused with 401, as if the server did not know it; the scenarios that use ${flag} will fail with 401`,
    details: [`request: GET ${url} (Authorization: Bearer $${envVarOfRole(role)})`, ...exchangeLines(response)],
    hint: `check ${flag}: it must be a token of that user that the server issued (a disconnected user or a missing permission gets 403, §5 rule 3). If the token is right, the server breaks §5 rule 3 and those failures are its own`,
  })
}

/** Exit 3 only when nothing answers at the connection level; any answer, even a refusal, is a server there. */
async function reachability(context: RunContext): Promise<Diagnostic | undefined> {
  const { url } = resolveUrl(ENTRY_POINT_PATH, context.baseUrl)
  try {
    await context.client.send({ method: 'GET', url, headers: { accept: mediaTypeOf('User') }, wire: false })
    return undefined
  } catch (error) {
    const transport = transportDiagnostic(error, url, context.timeoutMs)
    return transport.code === 'E_CONNECT' ? unreachable(transport) : undefined
  }
}

function unreachable(transport: Diagnostic): Diagnostic {
  return {
    ...transport,
    code: 'E_UNREACHABLE',
    message: `the server under test cannot be reached: ${transport.message}`,
  }
}

async function preflightRole(role: TokenRole, context: RunContext): Promise<Diagnostic | undefined> {
  const { url } = resolveUrl(ENTRY_POINT_PATH, context.baseUrl)
  const headers = { authorization: authorizationFor(role, context)!, accept: mediaTypeOf('User') }
  const flag = `--${role}`
  let response: IncomingResponse
  try {
    response = await context.client.send({ method: 'GET', url, headers, wire: false })
  } catch (error) {
    const transport = transportDiagnostic(error, url, context.timeoutMs)
    if (transport.code === 'E_CONNECT') return unreachable(transport)
    const sentence =
      transport.code === 'E_TIMEOUT' ? `no answer within ${seconds(context.timeoutMs)}` : 'the exchange broke off'
    return context.redact({
      code: 'E_PREFLIGHT',
      kind: 'error',
      message: `preflight GET ${url} with ${flag} failed: ${sentence}`,
      details: [`request: GET ${url}`, transport.message],
      hint:
        transport.code === 'E_TIMEOUT'
          ? 'is this the right server? raise --timeout if it is slow but working'
          : 'is --base-url right?',
    })
  }
  if (response.status >= 200 && response.status < 300) return undefined
  return context.redact({
    code: 'E_PREFLIGHT',
    kind: 'error',
    message: `preflight GET ${url} with ${flag} failed: ${sentenceFor(response)}`,
    details: [
      `request: GET ${url} (Authorization: Bearer $FITCONFORM_${role.toUpperCase().replace(/-/g, '_')})`,
      ...exchangeLines(response),
    ],
    hint: hintFor(response.status, flag),
  })
}

function sentenceFor(response: IncomingResponse): string {
  const type = response.headers['content-type'] ?? 'no Content-Type'
  if (response.status === 401 || response.status === 403) return `the token was refused (${response.status})`
  if (response.status === 404) return `this is not the API root: /user answered 404 with ${type}`
  return `/user answered ${response.status} with ${type}, not 2xx`
}

function hintFor(status: number, flag: string): string {
  if (status === 401 || status === 403)
    return `check ${flag}: it must be a valid access token of the account under test`
  if (status === 404)
    return '--base-url must be the URL /user hangs under (include any path prefix, e.g. https://host/api)'
  return 'the server must answer GET /user before any scenario can judge it'
}

function exchangeLines(response: IncomingResponse): string[] {
  const body = response.body.toString('utf8')
  const shown = body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}…` : body
  return [
    `response: ${response.status}, Content-Type: ${response.headers['content-type'] ?? '(none)'}`,
    ...(shown.trim() === '' ? [] : [`body: ${JSON.stringify(shown)}`]),
  ]
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
