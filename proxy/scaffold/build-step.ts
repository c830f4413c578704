/**
 * One recorded exchange → one step of the scenario format (docs/scenario-format.md). Assertions are
 * what §4 states for the endpoint (status, media type, schema, headers, no body), never the recorded
 * values of volatile fields (ids, dates): a scaffolded scenario keeps passing on the next run.
 */
import { mediaTypeOf, REPRESENTATION_NAMES, type RepresentationName } from '../../src/spec/representations.js'
import { literalText, literalValue } from '../../src/shared/literal-text.js'
import type { ScaffoldEntry } from './scaffold-exchange.js'

export type TokenRole =
  'token' | 'other-token' | 'revoked-token' | 'revoked-delete-token' | 'limited-token' | 'none' | 'invalid'

export interface StepOptions {
  readonly name: string
  /** The URL to request: a path or a `${variable}`. */
  readonly url: string
  readonly role: TokenRole
  /** If-Modified-Since to send instead of the recorded date (a template computed at run time). */
  readonly ifModifiedSince?: string
  /** For a conditional read: the answer §4 rule 3 gives for the date sent, when it is certain. */
  readonly conditionalStatus?: 200 | 304
  /** Replaces the recorded `notes` text of a written body (the run marker). */
  readonly notes?: string
}

export type StepObject = Record<string, unknown>

/**
 * The recorded request as a step: the headers that decide the answer (Accept, Content-Type,
 * If-Modified-Since) as the client sent them, so a deliberately wrong media type (a recorded 415)
 * is sent wrong again; the representation's name where the value is exactly §4's media type.
 */
export function buildStep(x: ScaffoldEntry, options: StepOptions): StepObject {
  const request: Record<string, unknown> = { method: x.method, url: options.url }
  if (x.query.length > 0)
    request.query = Object.fromEntries(x.query.map(([name, value]) => [name, queryValue(x, name, value)]))
  const endpoint = x.endpoint
  const headers: Record<string, string> = {}
  const accept = x.requestHeaders.get('accept')
  const acceptName = accept === undefined ? undefined : representationNamed(accept, endpoint?.accept)
  if (acceptName !== undefined) request.accept = acceptName
  else if (accept !== undefined) headers.accept = literalText(accept)
  const contentType = x.requestHeaders.get('content-type')
  const hasBody = x.requestJson !== undefined || x.requestText !== undefined
  const contentTypeName =
    contentType === undefined || !hasBody ? undefined : representationNamed(contentType, endpoint?.requestBody)
  if (contentTypeName !== undefined) request.contentType = contentTypeName
  else if (hasBody && contentType !== undefined) headers['content-type'] = literalText(contentType)
  const ims = x.requestHeaders.get('if-modified-since')
  if (ims !== undefined) headers['if-modified-since'] = options.ifModifiedSince ?? literalText(ims)
  if (Object.keys(headers).length > 0) request.headers = headers
  if (x.requestJson !== undefined && contentType !== undefined)
    request.json = sanitizeBody(x.requestJson, options.notes)
  // Without a recorded Content-Type the body goes as text: `json:` would add application/json.
  else if (x.requestJson !== undefined) request.body = JSON.stringify(sanitizeBody(x.requestJson, options.notes))
  else if (x.requestText !== undefined) request.body = literalText(x.requestText)
  if (options.role !== 'token') request.auth = options.role
  return { name: options.name, request, expect: expectFor(x, options) }
}

/** The representation whose media type is exactly `value` (the endpoint's own first), so the step can name it. */
function representationNamed(value: string, preferred: RepresentationName | undefined): RepresentationName | undefined {
  if (preferred !== undefined && mediaTypeOf(preferred) === value) return preferred
  return REPRESENTATION_NAMES.find((name) => mediaTypeOf(name) === value)
}

/**
 * A modification-date scope (§4 rule 1) names days relative to when it was sent: sent again later, the
 * same distance from the run's day. Start-time scopes name the data's own dates and stay as recorded.
 */
function queryValue(x: ScaffoldEntry, name: string, value: string): string {
  if (!/^modifiedNo(Earlier|Later)Than$/.test(name) || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return literalText(value)
  const sent = Date.parse(`${x.startedDateTime.slice(0, 10)}T00:00:00Z`)
  const days = Math.round((Date.parse(`${value}T00:00:00Z`) - sent) / 86_400_000)
  if (!Number.isFinite(days)) return literalText(value)
  return days === 0 ? '${run.now | ymd}' : `\${run.now | addDays(${days}) | ymd}`
}

function expectFor(x: ScaffoldEntry, options: StepOptions): Record<string, unknown> {
  const endpoint = x.endpoint
  if (endpoint === undefined) return { status: x.status }
  if ((options.role === 'none' || options.role === 'invalid') && x.status >= 400) {
    // The spec names no status for a missing or unknown token (§5 rule 1, §7 rule 6): only "not a success".
    return { status: { notStatusClass: '2xx' } }
  }
  // §7: a 403 carries the ErrorMessage body; a HEAD answer carries none (RFC 9110 §9.3.2).
  if (x.status === 403)
    return x.method === 'HEAD'
      ? { status: 403, noBody: true }
      : { status: 403, mediaType: 'ErrorMessage', schema: 'ErrorMessage' }
  if (x.status >= 400) return { status: `${Math.floor(x.status / 100)}xx` }
  if (x.requestHeaders.has('if-modified-since') && endpoint.conditional !== undefined) {
    // §4 rule 3: 304 only when unchanged since the date; otherwise the normal response. Asserted only
    // where the date sent makes the answer certain and the recording agrees.
    if (options.conditionalStatus === 304 && x.status === 304) return { status: 304, noBody: true }
    if (options.conditionalStatus === 200 && x.status === 200)
      return { status: 200, mediaType: endpoint.responseBody, schema: endpoint.responseBody }
    return { status: [200, 304] }
  }
  const success = endpoint.success.filter((status) => status !== 304)
  const status = success.length === 1 ? success[0] : success
  switch (endpoint.row) {
    case 4:
      return { status, noBody: true, headers: { location: { relativeUri: true } } }
    case 5:
    case 8:
      return { status, noBody: true }
    case 9:
      return {
        status,
        noBody: true,
        headers: {
          'content-type': { mediaType: 'FitnessActivity' },
          'content-length': { present: true },
          'last-modified': { httpDate: true },
        },
      }
    default: {
      const expect: Record<string, unknown> = { status }
      if (endpoint.responseBody !== undefined) {
        expect.mediaType = endpoint.responseBody
        expect.schema = endpoint.responseBody
      }
      if (endpoint.lastModifiedRule !== undefined) expect.headers = { 'last-modified': { httpDate: true } }
      return expect
    }
  }
}

/** Rule ids a step built by `buildStep` is evidence for. */
export function rulesOfStep(x: Pick<ScaffoldEntry, 'endpoint' | 'findings'>, step: StepObject): string[] {
  const endpoint = x.endpoint
  if (endpoint === undefined) return []
  const expect = step.expect as Record<string, unknown>
  const rules = new Set<string>()
  if (expect.status === 403 && expect.schema !== undefined)
    ['ERROR-MEDIA-TYPE', 'ERROR-FIELDS'].forEach((rule) => rules.add(rule))
  else if (expect.status === 403 && endpoint.noBodyRule !== undefined) rules.add(endpoint.noBodyRule)
  else if (typeof expect.status === 'object' && expect.status !== null && !Array.isArray(expect.status))
    rules.add('AUTH-REQUIRED')
  else if (Array.isArray(expect.status) || expect.status === 304)
    rules.add(endpoint.conditional?.notModified ?? endpoint.statusRule)
  else if (typeof expect.status === 'number') {
    rules.add(endpoint.statusRule)
    if (expect.mediaType !== undefined) rules.add('MEDIA-TYPE-RESPONSE')
    if (endpoint.lastModifiedRule !== undefined) rules.add(endpoint.lastModifiedRule)
    if (endpoint.noBodyRule !== undefined) rules.add(endpoint.noBodyRule)
    if (endpoint.row === 4) rules.add('CREATE-LOCATION')
  }
  for (const f of x.findings) if (f.side === 'response' && f.rule !== undefined) rules.add(f.rule)
  return [...rules]
}

/**
 * A recorded body as a request body: every `post_to_<network>` flag false (nothing is published), a
 * `notes` text replaced by the run marker so the run's data can be found and removed (a `notes` of
 * another type is a deliberately bad value and stays), recorded text written as literal text
 * (src/shared/literal-text.ts: it is data, not a template).
 */
function sanitizeBody(body: unknown, notes: string | undefined): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return literalValue(body)
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('post_to_')) copy[key] = typeof value === 'boolean' ? false : literalValue(value)
    else if (key === 'notes' && notes !== undefined && typeof value === 'string') copy[key] = notes
    else copy[key] = literalValue(value)
  }
  if (notes !== undefined && !('notes' in copy) && 'type' in copy) copy.notes = notes
  return copy
}
