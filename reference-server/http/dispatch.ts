// One request, from raw IncomingMessage to a Reply: route, method, authentication, permission,
// body, handler. The order matters: an unknown path is 404 for anyone, and no body is read for a
// caller who is about to be refused.
import type { IncomingMessage } from 'node:http'
import { authenticate, authorize } from './auth.js'
import type { Call, ServerContext } from '../call.js'
import { readBody } from './read-body.js'
import { parseRequestTarget } from './request-target.js'
import { ReplyProblem, textReply, type Reply } from './reply.js'
import { allowedMethods, handlerFor, matchRoute } from './routes.js'
import { BodyProblem } from '../representations/validation.js'

export async function dispatch(req: IncomingMessage, server: ServerContext): Promise<Reply> {
  const target = parseRequestTarget(req.url ?? '/')
  if (!target) return textReply(400, 'The request target is not a valid URL.')
  const method = req.method ?? 'GET'
  // §1 rule 5: paths are relative to {base_url}, which may carry a path of its own.
  const routedPath = withoutBasePath(target.pathname, server.basePath)
  const match = routedPath === undefined ? undefined : matchRoute(routedPath)
  if (!match)
    return textReply(
      404,
      `Nothing is served at ${target.pathname}. The paths are those of §4: /user, /profile, /fitnessActivities and /fitnessActivities/<id>.`,
    )
  const handler = handlerFor(match.route, method)
  const allow = allowedMethods(match.route)
  if (!handler)
    return textReply(405, `${method} is not supported on ${target.pathname}; use ${allow}.`, { Allow: allow })

  const requestLine = { method, path: routedPath ?? target.pathname }
  const authentication = authenticate(req.headers.authorization, server, requestLine)
  if (!authentication.ok) return authentication.reply
  const refusal = authorize(authentication.grant, match.route.dataSet, server, requestLine)
  if (refusal) return refusal

  let body: Buffer | undefined
  if (method === 'POST' || method === 'PUT') {
    const read = await readBody(req)
    if (!read.ok && read.reason === 'too-large')
      return textReply(413, 'The request body is larger than this server accepts (1 MiB).')
    if (!read.ok) return textReply(400, 'The request body was not received completely.')
    body = read.body
  }

  const call: Call = {
    method: method === 'HEAD' ? 'GET' : method,
    isHead: method === 'HEAD',
    pathname: target.pathname,
    query: target.searchParams,
    headers: req.headers,
    origin: originOf(req, server),
    activityId: match.activityId,
    grant: authentication.grant,
    body,
    server,
  }
  try {
    return await handler(call)
  } catch (error) {
    if (error instanceof ReplyProblem) return error.reply
    if (error instanceof BodyProblem)
      return textReply(server.behaviour.invalidBodyStatus, `Invalid request body: ${error.message}`)
    throw error
  }
}

function withoutBasePath(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined
}

/** `http://` plus the Host the client used; the server's own address when Host is absent or odd. */
function originOf(req: IncomingMessage, server: ServerContext): string {
  const host = req.headers.host
  return host !== undefined && /^[A-Za-z0-9.\-_~[\]:]+$/.test(host) ? `http://${host}` : server.ownOrigin()
}
