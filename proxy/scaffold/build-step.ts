/**
 * One recorded exchange → one step of the scenario format (docs/scenario-format.md). Assertions are
 * what §4 states for the endpoint (status, media type, schema, headers, no body), never the recorded
 * values of volatile fields (ids, dates): a scaffolded scenario keeps passing on the next run.
 */
import type { ScaffoldExchange } from './scaffold-exchange.js'

export type TokenRole = 'token' | 'other-token' | 'revoked-token' | 'revoked-delete-token' | 'limited-token' | 'none' | 'invalid'

export interface StepOptions {
  readonly name: string
  /** The URL to request: a path or a `${variable}`. */
  readonly url: string
  readonly role: TokenRole
  /** If-Modified-Since to send instead of the recorded literal (a captured `${variable}`). */
  readonly ifModifiedSince?: string
  /** For a conditional read: whether the answer is known to be 304 (no write since the captured date). */
  readonly notModifiedCertain?: boolean
  /** Replaces the recorded `notes` of a written body (the run marker). */
  readonly notes?: string
}

export type StepObject = Record<string, unknown>

export function buildStep(x: ScaffoldExchange, options: StepOptions): StepObject {
  const request: Record<string, unknown> = { method: x.method, url: options.url }
  if (x.query.length > 0) request.query = Object.fromEntries(x.query)
  const endpoint = x.endpoint
  if (endpoint?.accept !== undefined) request.accept = endpoint.accept
  if (endpoint?.requestBody !== undefined) request.contentType = endpoint.requestBody
  const headers: Record<string, string> = {}
  const ims = x.requestHeaders.get('if-modified-since')
  if (ims !== undefined) headers['If-Modified-Since'] = options.ifModifiedSince ?? ims
  if (Object.keys(headers).length > 0) request.headers = headers
  if (x.requestJson !== undefined) request.json = sanitizeBody(x.requestJson, options.notes)
  else if (x.requestText !== undefined) request.body = x.requestText
  if (options.role !== 'token') request.auth = options.role
  return { name: options.name, request, expect: expectFor(x, options) }
}

function expectFor(x: ScaffoldExchange, options: StepOptions): Record<string, unknown> {
  const endpoint = x.endpoint
  if (endpoint === undefined) return { status: x.status }
  if (options.role === 'none' || options.role === 'invalid') {
    // The spec names no status for a missing or unknown token (§5 rule 1, §7 rule 6): only "not a success".
    return { status: { notStatusClass: '2xx' } }
  }
  if (x.status === 403) return { status: 403, mediaType: 'ErrorMessage', schema: 'ErrorMessage' }
  if (x.status >= 400) return { status: `${Math.floor(x.status / 100)}xx` }
  if (x.requestHeaders.has('if-modified-since') && endpoint.conditional !== undefined) {
    // §4 rule 3: 304 only when unchanged since the date; otherwise the normal response.
    return x.status === 304 && options.notModifiedCertain === true ? { status: 304, noBody: true } : { status: [200, 304] }
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
        headers: { 'content-type': { mediaType: 'FitnessActivity' }, 'content-length': { present: true }, 'last-modified': { httpDate: true } },
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
export function rulesOfStep(x: Pick<ScaffoldExchange, 'endpoint' | 'findings'>, step: StepObject): string[] {
  const endpoint = x.endpoint
  if (endpoint === undefined) return []
  const expect = step.expect as Record<string, unknown>
  const rules = new Set<string>()
  if (expect.status === 403) ['ERROR-MEDIA-TYPE', 'ERROR-FIELDS'].forEach((rule) => rules.add(rule))
  else if (typeof expect.status === 'object' && expect.status !== null && !Array.isArray(expect.status)) rules.add('AUTH-REQUIRED')
  else if (Array.isArray(expect.status) || expect.status === 304) rules.add(endpoint.conditional?.notModified ?? endpoint.statusRule)
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
 * A recorded body as a request body: every `post_to_<network>` flag false (nothing is published),
 * `notes` replaced by the run marker so the run's data can be found and removed.
 */
function sanitizeBody(body: unknown, notes: string | undefined): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('post_to_')) copy[key] = false
    else if (key === 'notes' && notes !== undefined) copy[key] = notes
    else copy[key] = escapeTemplates(value)
  }
  if (notes !== undefined && !('notes' in copy) && 'type' in copy) copy.notes = notes
  return copy
}

/** Recorded text is data, not a template: a literal `${` would be read as one. */
function escapeTemplates(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\$\{/g, '$ {')
  if (Array.isArray(value)) return value.map(escapeTemplates)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeTemplates(v)]))
  return value
}
