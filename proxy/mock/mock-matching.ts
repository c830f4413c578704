/**
 * How `mock` picks the recorded exchange that answers a request, as WireMock and mitmproxy's
 * server replay do: a recorded exchange matches when it agrees with the request on
 *
 *   1. method, path (without the recording's base path) and query (order-insensitive);
 *   2. media type: Content-Type for a request with a body, else Accept (any recorded type asked for);
 *   3. credentials: whether an Authorization header was sent, and, when the mock was given the
 *      recording's FITCONFORM_REDACT_KEY, which credential it was (the recording's keyed hash). Without
 *      the key, a recording of one user's credential answers any credential as that user; a recording
 *      of several answers no request that carries one (`unidentified`): it cannot tell whose it is, and
 *      one user's answer (or a revoked token's 403) must not reach another;
 *   4. conditional headers (If-Modified-Since, If-None-Match, …): which ones were sent.
 *
 * Among the matches, those whose conditional values are equal too come first; equal matches are served
 * in recorded order, the last one repeating (a read after an edit shows the edit), counted per caller
 * (each credential the mock receives), so one client's calls never move another's along. A miss names
 * the nearest recorded request and every way it differs. Pure: no I/O, so it is tested with tables.
 */
import { REDACT_KEY_ENV } from '../forward/proxy-defaults.js'
import { parseMediaType } from '../../src/validation/media-type.js'

export const CONDITIONAL_HEADERS = [
  'if-modified-since',
  'if-unmodified-since',
  'if-none-match',
  'if-match',
  'if-range',
] as const

/** What matching needs of a request, recorded or received. */
export interface RequestFacts {
  readonly method: string
  /** Relative to {base_url}, without the query. */
  readonly path: string
  /** Sorted `name=value&…`, '' for none. */
  readonly query: string
  readonly mediaTypes: readonly string[]
  /** Whether an Authorization header was sent. */
  readonly credentialSent: boolean
  /** The keyed hash of the credential, when it can be known (recorded `_tokenId`; the mock's key). */
  readonly tokenId?: string
  /**
   * A credential was sent and the mock cannot tell whose: it has no key and the recording holds several
   * users' credentials (`credentialIdentities`). Such a request matches no exchange sent with one.
   */
  readonly unidentified?: boolean
  /** Who asks, for the recorded-order counters (the mock's in-memory hash of the credential); '' for all. */
  readonly caller?: string
  /** Conditional headers sent, lower-case names. */
  readonly conditional: ReadonlyMap<string, string>
}

export interface RecordedFacts extends RequestFacts {
  /** `_id` of the recorded exchange, for logs and explanations. */
  readonly id: number
  readonly status: number
}

export type MatchOutcome<T extends RecordedFacts> =
  | { readonly kind: 'match'; readonly exchange: T }
  | { readonly kind: 'miss'; readonly explanation: string; readonly nearest?: NearestRequest }

/** The recorded request closest to a missed one, and every way it differs. */
export interface NearestRequest {
  readonly id: number
  /** `GET /user`, as recorded (the recording is redacted). */
  readonly request: string
  readonly status: number
  readonly reasons: readonly string[]
}

/** Picks the answer to `request`; `served` counts the answers given per group of equal matches (mutated). */
export function matchRequest<T extends RecordedFacts>(
  recorded: readonly T[],
  request: RequestFacts,
  served: Map<string, number>,
): MatchOutcome<T> {
  const matches = recorded.filter((x) => differences(x, request).length === 0)
  if (matches.length === 0) {
    const nearest = nearestRequest(recorded, request)
    return {
      kind: 'miss',
      explanation: explainMiss(recorded, request, nearest),
      nearest,
    }
  }
  const exact = matches.filter((x) => sameConditionalValues(x, request))
  const tier = exact.length > 0 ? exact : matches
  const group = `${request.caller ?? ''}\n${tier.map((x) => x.id).join(',')}`
  const index = served.get(group) ?? 0
  served.set(group, index + 1)
  return { kind: 'match', exchange: tier[Math.min(index, tier.length - 1)] as T }
}

interface Difference {
  /** How far apart: a different path weighs more than a different header. */
  readonly weight: number
  readonly text: string
}

function differences(x: RecordedFacts, r: RequestFacts): Difference[] {
  const out: Difference[] = []
  if (x.path !== r.path) out.push({ weight: 100, text: `its path is ${x.path}` })
  if (x.method !== r.method) out.push({ weight: 50, text: `its method is ${x.method}` })
  if (x.query !== r.query)
    out.push({ weight: 10, text: x.query === '' ? 'it had no query' : `its query is ?${x.query}` })
  if (r.mediaTypes.length > 0 && x.mediaTypes.length > 0 && !x.mediaTypes.some((type) => r.mediaTypes.includes(type))) {
    out.push({
      weight: 1,
      text: `it was recorded for ${x.mediaTypes.join(', ')}, this request names ${r.mediaTypes.join(', ')}`,
    })
  }
  if (x.credentialSent !== r.credentialSent) {
    out.push({
      weight: 1,
      text: x.credentialSent
        ? 'it was sent with credentials, this request has no Authorization header'
        : 'it was sent without credentials, this request has an Authorization header',
    })
  } else if (x.credentialSent && r.unidentified === true) {
    out.push({
      weight: 1,
      text: `the recording holds several users' credentials, and without ${REDACT_KEY_ENV} set to the key it was recorded with the mock cannot tell whose this request carries`,
    })
  } else if (x.credentialSent && r.tokenId !== undefined && x.tokenId !== undefined && x.tokenId !== r.tokenId) {
    out.push({
      weight: 1,
      text: `it was sent with credential ${x.tokenId}, this request with ${r.tokenId} (a credential the recording does not hold here, or another FITCONFORM_REDACT_KEY than the recording's)`,
    })
  }
  const recordedNames = [...x.conditional.keys()].sort().join(', ')
  const askedNames = [...r.conditional.keys()].sort().join(', ')
  if (recordedNames !== askedNames) {
    out.push({
      weight: 1,
      text: `it was sent with ${recordedNames === '' ? 'no conditional header' : recordedNames}, this request with ${askedNames === '' ? 'none' : askedNames}`,
    })
  }
  return out
}

function sameConditionalValues(x: RecordedFacts, r: RequestFacts): boolean {
  return [...r.conditional].every(([name, value]) => x.conditional.get(name) === value)
}

/** Past this many, the recorded requests of a miss are counted, not listed. */
const LISTED_REQUESTS = 20

function nearestRequest(recorded: readonly RecordedFacts[], r: RequestFacts): NearestRequest | undefined {
  let nearest: { x: RecordedFacts; diffs: Difference[]; weight: number } | undefined
  for (const x of recorded) {
    const diffs = differences(x, r)
    const weight = diffs.reduce((sum, d) => sum + d.weight, 0)
    if (nearest === undefined || weight < nearest.weight) nearest = { x, diffs, weight }
  }
  if (nearest === undefined) return undefined
  return {
    id: nearest.x.id,
    request: describeRequest(nearest.x),
    status: nearest.x.status,
    reasons: nearest.diffs.map((d) => d.text),
  }
}

function explainMiss(recorded: readonly RecordedFacts[], r: RequestFacts, nearest: NearestRequest | undefined): string {
  const asked = describeRequest(r)
  const sameRequest = recorded.some((x) => x.method === r.method && x.path === r.path && x.query === r.query)
  const lines = [
    sameRequest ? `no recorded exchange of ${asked} matches this request.` : `no recorded exchange for ${asked}.`,
  ]
  if (nearest !== undefined) {
    lines.push(
      `Nearest recorded request: #${nearest.id} ${nearest.request} → ${nearest.status}; it does not match because:`,
    )
    for (const reason of nearest.reasons) lines.push(`  - ${reason}`)
  }
  const known = [...new Set(recorded.map(describeRequest))]
  lines.push('Recorded requests:', ...known.slice(0, LISTED_REQUESTS).map((k) => `  ${k}`))
  if (known.length > LISTED_REQUESTS) lines.push(`  … and ${known.length - LISTED_REQUESTS} more`)
  return lines.join('\n')
}

/**
 * The credentials the recording tells apart: the keyed hashes of the exchanges sent with one ('' for
 * one sent without a recorded hash), each once, in recorded order.
 */
export function credentialIdentities(recorded: readonly RequestFacts[]): string[] {
  return [...new Set(recorded.filter((x) => x.credentialSent).map((x) => x.tokenId ?? ''))]
}

export function describeRequest(r: Pick<RequestFacts, 'method' | 'path' | 'query'>): string {
  return `${r.method} ${r.path}${r.query === '' ? '' : `?${r.query}`}`
}

/** Query parameters sorted by name then value, so order does not matter. */
export function sortedQuery(query: URLSearchParams): string {
  const sorted = [...query].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y))
  return new URLSearchParams(sorted).toString()
}

/** The media-type essences named in header values (a list of ranges for Accept); `*\/*` names none. */
export function mediaTypeEssences(values: readonly string[]): string[] {
  const out: string[] = []
  for (const value of values) {
    for (const range of value.split(',')) {
      const essence = parseMediaType(range.trim())?.essence
      if (essence !== undefined && essence !== '*/*' && !out.includes(essence)) out.push(essence)
    }
  }
  return out
}
