/**
 * Recorded exchanges → scenario drafts, one per meaningful flow (issue 5, item 6):
 *
 * - activity flow: a create (201) and every later exchange on the activity it created, in order; the
 *   Location is captured (`${activity}`) instead of the literal id, registered with `creates:`, and a
 *   conditional read reuses a captured Last-Modified instead of the recorded date;
 * - feed reads: one scenario per query shape (paging with `pageSize`/`page`, time scopes, plain);
 * - reads of activities the recording did not create: the id comes from the feed at run time;
 * - the entry point, profile edits, and requests without or with an unknown token.
 *
 * Duplicates collapse: within a group, an exchange is kept when it is the first, or when it carried
 * findings no kept exchange of the group carried (so every distinct finding stays in the output).
 * Left out, and said so: unknown endpoints, failed exchanges, writes to activities the recording did
 * not create (scaffolding them would change someone's data).
 */
import type { Finding } from '../../src/model/exchange.js'
import { buildStep, rulesOfStep, type StepObject, type TokenRole } from './build-step.js'
import type { ScaffoldExchange } from './scaffold-exchange.js'

export interface StepDraft {
  readonly exchange: ScaffoldExchange
  readonly step: StepObject
  readonly comments: readonly string[]
}

export interface ScenarioDraft {
  readonly kind: string
  readonly id: string
  readonly title: string
  readonly tags: readonly string[]
  readonly steps: StepDraft[]
  /** How many recorded exchanges the scenario stands for (collapsed duplicates included). */
  represents: number
}

export interface ScaffoldPlan {
  readonly scenarios: readonly ScenarioDraft[]
  readonly leftOut: readonly { readonly exchange: number; readonly reason: string }[]
}

const MARKER = '${run.marker} scaffolded'

interface ActivityFlow {
  readonly draft: ScenarioDraft
  /** Recorded Last-Modified value → index of the step that saw it, and whether a write came after. */
  readonly lastModified: Map<string, { step: number; writtenSince: boolean; variable?: string }>
  open: boolean
}

export function planScaffold(exchanges: readonly ScaffoldExchange[], options: { idPrefix: string }): ScaffoldPlan {
  const ordered = [...exchanges].sort((a, b) => a.id - b.id)
  const roles = tokenRoles(ordered)
  const flows = new Map<string, ActivityFlow>()
  const groups = new Map<string, { draft: ScenarioDraft; fingerprints: Set<string> }>()
  const scenarios: ScenarioDraft[] = []
  const leftOut: { exchange: number; reason: string }[] = []
  const counters = new Map<string, number>()
  const newDraft = (kind: string, title: string, tags: string[]): ScenarioDraft => {
    const n = (counters.get(kind) ?? 0) + 1
    counters.set(kind, n)
    const draft: ScenarioDraft = { kind, id: `${options.idPrefix}-${kind}-${n}`, title, tags: ['scaffolded', ...tags], steps: [], represents: 0 }
    scenarios.push(draft)
    return draft
  }

  for (const x of ordered) {
    const endpoint = x.endpoint
    if (endpoint === undefined) {
      leftOut.push({ exchange: x.id, reason: `${x.method} ${x.path} is no endpoint of §4` })
      continue
    }
    const role = roles(x)
    const activityId = endpoint.path.includes('<activity_id>') ? lastSegment(x.path) : undefined
    const flow = activityId === undefined ? undefined : flows.get(activityId)

    if (endpoint.row === 4 && x.status === 201 && x.responseHeaders.has('location')) {
      const id = lastSegment(x.responseHeaders.get('location') as string)
      const draft = newDraft('activity-flow', 'A recorded activity flow: created, then used as recorded, with the assertions §4 states for each step', ['activity', 'writes'])
      const step = buildStep(x, { name: describe(x, 'create the activity'), url: x.path, role, notes: MARKER })
      step.creates = 'headers.location'
      step.capture = { activity: 'headers.location' }
      addStep(draft, x, step)
      draft.represents = 1
      flows.set(id, { draft, lastModified: new Map(), open: true })
      continue
    }
    if (flow?.open === true) {
      addFlowStep(flow, x, role)
      if (endpoint.row === 8 && x.status < 300) flow.open = false
      continue
    }
    if (endpoint.row === 5 || endpoint.row === 7 || endpoint.row === 8) {
      leftOut.push({ exchange: x.id, reason: `${x.method} ${x.path}: a write to an activity this recording did not create` })
      continue
    }

    const kind = groupKind(x)
    const key = [kind, x.method, kind === 'activity-read' ? '' : x.path, queryShape(x), x.status, role, x.requestHeaders.has('if-modified-since'), bodyShape(x)].join('|')
    let group = groups.get(key)
    if (group === undefined) {
      const draft = newDraft(kind, groupTitle(kind, x), [kind.split('-')[0] as string, ...(x.method === 'GET' || x.method === 'HEAD' ? ['read-only'] : ['writes'])])
      group = { draft, fingerprints: new Set() }
      groups.set(key, group)
    }
    group.draft.represents += 1
    const fingerprint = fingerprintOf(x.findings)
    if (group.draft.steps.length > 0 && group.fingerprints.has(fingerprint)) continue
    group.fingerprints.add(fingerprint)
    if (kind === 'activity-read') {
      // The recorded id belongs to the recorded account: take one from the feed at run time.
      const n = group.draft.steps.length
      addStep(group.draft, x, {
        name: 'take an activity id from the feed',
        request: { method: 'GET', url: '/fitnessActivities', query: { pageSize: 1 }, accept: 'FitnessActivityFeed' },
        expect: { status: 200 },
        capture: { [`activityId${n}`]: 'body.items[0].uri | lastSegment' },
      }, false)
      addStep(group.draft, x, buildStep(x, { name: describe(x, 'read an activity of the account'), url: `/fitnessActivities/\${activityId${n}}`, role }))
    } else {
      addStep(group.draft, x, buildStep(x, { name: describe(x, stepName(kind)), url: x.path, role, ...(kind === 'create' ? { notes: MARKER } : {}) }))
      if (kind === 'create') (group.draft.steps.at(-1)?.step as StepObject).creates = 'headers.location'
    }
  }
  return { scenarios, leftOut }
}

function addFlowStep(flow: ActivityFlow, x: ScaffoldExchange, role: TokenRole): void {
  const endpoint = x.endpoint
  if (endpoint === undefined) return
  const steps = flow.draft.steps
  flow.draft.represents += 1
  const previous = steps.at(-1)?.exchange
  // A client polling the same read: one step stands for the run of identical exchanges.
  if (previous !== undefined && x.findings.length === 0 && previous.method === x.method && previous.status === x.status && !x.requestHeaders.has('if-modified-since') && endpoint.row !== 5) {
    return
  }
  const ims = x.requestHeaders.get('if-modified-since')
  let ifModifiedSince: string | undefined
  let notModifiedCertain = false
  if (ims !== undefined) {
    const seen = flow.lastModified.get(ims)
    if (seen !== undefined) {
      seen.variable ??= `lastModified${seen.step}`
      const capturing = steps[seen.step]?.step as StepObject
      capturing.capture = { ...(capturing.capture as Record<string, string> | undefined), [seen.variable]: 'headers.last-modified' }
      ifModifiedSince = `\${${seen.variable}}`
      notModifiedCertain = !seen.writtenSince
    }
  }
  const step = buildStep(x, { name: describe(x, stepName('flow', x)), url: '${activity}', role, ifModifiedSince, notModifiedCertain, notes: MARKER })
  addStep(flow.draft, x, step)
  if (x.method !== 'GET' && x.method !== 'HEAD') for (const seen of flow.lastModified.values()) seen.writtenSince = true
  const lastModified = x.responseHeaders.get('last-modified')
  if (lastModified !== undefined && x.status === 200 && !flow.lastModified.has(lastModified)) {
    flow.lastModified.set(lastModified, { step: steps.length - 1, writtenSince: false })
  }
}

function addStep(draft: ScenarioDraft, x: ScaffoldExchange, step: StepObject, withFindings = true): void {
  const comments = [`recorded ${x.startedDateTime} as exchange #${x.id}: ${x.method} ${x.path}${querySuffix(x)} → ${x.status}`]
  if (withFindings) {
    for (const line of summarizeFindings(x.findings)) comments.push(line)
    const accept = x.requestHeaders.get('accept')
    if (x.endpoint?.accept !== undefined && accept !== undefined && step.request !== undefined && !accept.includes(x.endpoint.accept)) comments.push(`the client sent Accept: ${accept}; the step sends the media type of §4`)
  }
  draft.steps.push({ exchange: x, step, comments })
}

/** Rule ids of a draft: what its steps assert, plus the rules of the response findings it keeps. */
export function rulesOfDraft(draft: ScenarioDraft): string[] {
  return [...new Set(draft.steps.flatMap((s) => rulesOfStep(s.exchange, s.step)))].sort()
}

/**
 * Token roles: no Authorization → none; not Bearer → invalid; a 403 → the role its §7 reason names;
 * otherwise the most used token is `token` and the next one `other-token` (a second user).
 */
function tokenRoles(exchanges: readonly ScaffoldExchange[]): (x: ScaffoldExchange) => TokenRole {
  const uses = new Map<string, number>()
  for (const x of exchanges) if (x.tokenId !== undefined && x.status !== 403) uses.set(x.tokenId, (uses.get(x.tokenId) ?? 0) + 1)
  const ranked = [...uses].sort((a, b) => b[1] - a[1]).map(([id]) => id)
  return (x) => {
    if (!x.hasAuthorization) return 'none'
    if (x.findings.some((f) => f.rule === 'AUTH-BEARER-SENT')) return 'invalid'
    if (x.status === 403) {
      const body = x.responseJson as { reason?: unknown; delete_health?: unknown } | undefined
      if (body?.reason === 'Insufficient permission') return 'limited-token'
      if (body?.reason === 'Revoked') return String(body.delete_health) === 'true' ? 'revoked-delete-token' : 'revoked-token'
    }
    return x.tokenId !== undefined && ranked.indexOf(x.tokenId) === 1 ? 'other-token' : 'token'
  }
}

function groupKind(x: ScaffoldExchange): string {
  switch (x.endpoint?.row) {
    case 1:
      return 'user'
    case 2:
      if (x.requestHeaders.has('if-modified-since')) return 'feed-conditional'
      if (x.query.some(([name]) => /^(no|modifiedNo)(Earlier|Later)Than$/.test(name))) return 'feed-scope'
      if (x.query.some(([name]) => name === 'pageSize' || name === 'page')) return 'feed-paging'
      return 'feed'
    case 3:
    case 9:
      return 'activity-read'
    case 4:
      return 'create'
    case 6:
      return 'profile-edit'
    default:
      return 'other'
  }
}

function groupTitle(kind: string, x: ScaffoldExchange): string {
  const request = `${x.method} ${kind === 'activity-read' ? '/fitnessActivities/<activity_id>' : x.path}${kind === 'activity-read' ? '' : querySuffix(x)}`
  return `A recorded ${request} answers as §4 states (status ${x.status} recorded)`
}

function stepName(kind: string, x?: ScaffoldExchange): string {
  if (kind === 'flow' && x !== undefined) {
    return { GET: 'read the activity', HEAD: 'ask for the headers of the activity', PUT: 'edit the activity', POST: 'add to the live activity', DELETE: 'delete the activity' }[x.method] ?? 'use the activity'
  }
  return { user: 'read the entry point', 'profile-edit': 'edit the profile', create: 'create an activity', feed: 'read the feed', 'feed-paging': 'read a page of the feed', 'feed-scope': 'read the feed in a time scope', 'feed-conditional': 'read the feed conditionally' }[kind] ?? 'send the recorded request'
}

function describe(x: ScaffoldExchange, what: string): string {
  return `${what} (recorded #${x.id}, ${x.status})`
}

function querySuffix(x: ScaffoldExchange): string {
  return x.query.length === 0 ? '' : `?${new URLSearchParams(x.query.map(([a, b]): [string, string] => [a, b])).toString()}`
}

function queryShape(x: ScaffoldExchange): string {
  return [...x.query].map(([a, b]) => `${a}=${b}`).sort().join('&')
}

function bodyShape(x: ScaffoldExchange): string {
  const body = x.requestJson
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort().join(',') : ''
}

/** Distinct findings are kinds and rules; the same rule at another item is the same finding again. */
function fingerprintOf(findings: readonly Finding[]): string {
  return [...new Set(findings.map((f) => `${f.kind}:${f.rule ?? f.message}`))].sort().join(';')
}

/** One comment line per kind and rule: the first message, and how many more places. */
function summarizeFindings(findings: readonly Finding[]): string[] {
  const groups = new Map<string, { first: Finding; count: number }>()
  for (const f of findings) {
    const key = `${f.kind}:${f.rule ?? f.message}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { first: f, count: 1 })
    else group.count += 1
  }
  return [...groups.values()].map(({ first, count }) => {
    const more = count > 1 ? ` (and ${count - 1} more like it)` : ''
    return `${first.kind}${first.rule === undefined ? '' : ` ${first.rule}`}: ${first.message}${more}`
  })
}

function lastSegment(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? uri
  return decodeURIComponent(path.split('/').filter(Boolean).at(-1) ?? '')
}
