// Authentication (§5) and the three structured 403s (§7 rules 1–3).
import type { ServerContext } from '../call.js'
import { demoTokens, grantByPrefix, grantFor, type Grant } from '../data/demo-accounts.js'
import { contentTypeOf } from './media-types.js'
import { errorMessageBody } from '../representations/representations.js'
import { jsonReply, textReply, type Reply } from './reply.js'

/** Which permission a route needs; only fitness activities can be withheld from a demo token. */
export type DataSet = 'user' | 'profile' | 'fitness-activities'

export type Authentication = { ok: true; grant: Grant } | { ok: false; reply: Reply }

/** The method and routed path of a request: what the permission mutants look at. */
export interface RequestLine {
  method: string
  path: string
}

const realm = 'Bearer realm="fitconform reference server"'

/**
 * §5 rule 1: `Authorization: Bearer <token>`. §7 rule 6 leaves the failure statuses open: a
 * missing header is 401 (400 in other-choices), an unknown or malformed one 401, both with a
 * text message and WWW-Authenticate (RFC 6750 §3).
 */
export function authenticate(header: string | undefined, server: ServerContext, request: RequestLine): Authentication {
  if (header === undefined || header.trim() === '') {
    if (server.faults.is('no-token-served')) return { ok: true, grant: firstDemoGrant() }
    if (server.faults.is('no-token-edits-profile') && request.method === 'PUT' && request.path === '/profile')
      return { ok: true, grant: firstDemoGrant() }
    if (server.faults.is('no-token-live-updates') && request.method === 'POST' && isActivityPath(request.path))
      return { ok: true, grant: firstDemoGrant() }
    const status = server.behaviour.missingAuthorizationStatus
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': realm } : {}
    const reply = textReply(
      status,
      'This request needs an "Authorization: Bearer <token>" header (§5 rule 1).',
      headers,
    )
    if (server.faults.is('refusal-as-activity') && request.method === 'GET' && isActivityPath(request.path))
      reply.headers['Content-Type'] = contentTypeOf('FitnessActivity', server.behaviour)
    return { ok: false, reply }
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header)
  const sent = match?.[1]
  const grant =
    sent === undefined
      ? undefined
      : (grantFor(sent) ?? (server.faults.is('token-prefix-matched') ? grantByPrefix(sent, 14) : undefined))
  if (!grant && server.faults.is('invalid-token-served')) return { ok: true, grant: firstDemoGrant() }
  if (
    !grant &&
    server.faults.is('invalid-token-edits-profile') &&
    request.method === 'PUT' &&
    request.path === '/profile'
  )
    return { ok: true, grant: firstDemoGrant() }
  if (!grant) {
    const message = match
      ? 'The bearer token is not known to this server.'
      : 'The Authorization header must have the form "Bearer <token>" (§5 rule 1).'
    const reply = textReply(401, message, { 'WWW-Authenticate': `${realm}, error="invalid_token"` })
    if (server.faults.is('error-message-on-401'))
      reply.headers['Content-Type'] = contentTypeOf('ErrorMessage', server.behaviour)
    return { ok: false, reply }
  }
  return { ok: true, grant }
}

/** The 403 a grant earns on a data set, or undefined when access is allowed. */
export function authorize(
  grant: Grant,
  dataSet: DataSet,
  server: ServerContext,
  request: RequestLine,
): Reply | undefined {
  if (isRefusalWaived(grant, server, request)) return undefined
  if (grant.revoked) {
    // §7 rules 1–2: a disconnected user is refused everywhere, with whether they asked for deletion.
    if (!grant.revoked.deleteHealth && server.faults.is('revoked-answers-401')) {
      return textReply(401, 'Access was revoked.', { 'WWW-Authenticate': `${realm}, error="invalid_token"` })
    }
    const editOfActivity = request.method === 'PUT' && isActivityPath(request.path)
    if (editOfActivity && server.faults.is('revoked-delete-health-false-on-edit'))
      return forbidden(server, 'Revoked', false)
    return forbidden(server, 'Revoked', grant.revoked.deleteHealth)
  }
  if (dataSet === 'fitness-activities' && !grant.fitnessActivities) return forbidden(server, 'Insufficient permission')
  return undefined
}

/** Mutants that check revocation or the permission on some requests only (§7 rules 1 and 3). */
function isRefusalWaived(grant: Grant, server: ServerContext, { method, path }: RequestLine): boolean {
  const { faults } = server
  const onActivity = isActivityPath(path)
  if (grant.revoked?.deleteHealth) {
    if (method === 'PUT' && path === '/profile') return faults.is('revoked-delete-token-edits-profile')
    return method === 'GET' && onActivity && faults.is('revoked-delete-token-reads-activity')
  }
  if (grant.revoked) {
    if (method === 'POST' && path === '/fitnessActivities') return faults.is('revoked-token-can-create')
    if (method === 'PUT' && path === '/profile') return faults.is('revoked-token-edits-profile')
    if (method === 'DELETE' && onActivity) return faults.is('revoked-token-deletes-activity')
    return method === 'HEAD' && onActivity && faults.is('revoked-token-heads-activity')
  }
  if (grant.fitnessActivities) return false
  if (method === 'POST' && path === '/fitnessActivities') return faults.is('limited-token-can-create')
  if (!onActivity) return false
  if (method === 'GET' || method === 'HEAD') return faults.is('limited-token-reads-activity')
  if (method === 'PUT') return faults.is('limited-token-edits-activity')
  if (method === 'DELETE') return faults.is('limited-token-deletes-activity')
  return method === 'POST' && faults.is('limited-token-live-updates')
}

function isActivityPath(path: string): boolean {
  return /^\/fitnessActivities\/[^/]+$/.test(path)
}

/** §7: the only structured error body, ErrorMessage, and only with 403. */
export function forbidden(
  server: ServerContext,
  reason: 'Revoked' | 'Insufficient permission',
  deleteHealth?: boolean,
): Reply {
  const { faults } = server
  const body = errorMessageBody(reason, deleteHealth, server.behaviour)
  if (reason === 'Revoked' && deleteHealth === false && faults.is('revoked-without-delete-health'))
    delete body.delete_health
  if (reason === 'Revoked' && deleteHealth === true && faults.is('revoked-delete-health-false'))
    body.delete_health = false
  if (reason === 'Insufficient permission' && faults.is('insufficient-with-delete-health')) body.delete_health = false
  if (reason === 'Insufficient permission' && faults.is('reason-misspelled')) body.reason = 'Insufficient permissions'
  const reply = jsonReply(server.behaviour, 'ErrorMessage', body, {}, 403)
  if (faults.is('error-media-type-wrong')) reply.headers['Content-Type'] = 'application/json'
  return reply
}

/** The user of the first demo token, whom the authentication mutants serve instead of refusing. */
function firstDemoGrant(): Grant {
  return grantFor(demoTokens.token)!
}
