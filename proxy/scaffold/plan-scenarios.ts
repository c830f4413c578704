/**
 * Recorded exchanges, in recording order → scenario drafts, one per meaningful flow:
 *
 * - activity flow: a create (201) and every later exchange on the activity it created, in order; the
 *   Location is captured (`${activity}`) instead of the literal id, registered with `creates:`, and a
 *   conditional read reuses a captured Last-Modified instead of the recorded date;
 * - feed reads: one scenario per query shape (paging with `pageSize`/`page`, time scopes, plain);
 * - reads of activities the recording did not create: the id comes from the feed at run time;
 * - the entry point, profile edits, and requests without or with an unknown token.
 *
 * Duplicates collapse: within a group, an exchange is kept when it is the first, or when it carried
 * findings no kept exchange of the group carried (so every distinct finding stays in the output); flows
 * of the same shape (each step's method, §4 row, status, media type, token role and assertions, plus
 * the set of findings) become one scenario, so a flow with a finding the others lack stays its own.
 * Left out, and said so: unknown endpoints, failed exchanges, writes to activities the recording did
 * not create (scaffolding them would change someone's data).
 *
 * The planner takes one exchange at a time and holds state per open flow and per distinct shape only
 *: a flow ends with its successful DELETE, or at the end of the recording.
 */
import type { Finding } from '../../src/model/exchange.js'
import { parseHttpDate } from '../../src/validation/time-formats.js'
import { buildStep, rulesOfStep, type StepObject, type StepOptions, type TokenRole } from './build-step.js'
import type { ScaffoldEntry } from './scaffold-exchange.js'
import { countTokenUse, createTokenRoles, type TokenUses } from './token-roles.js'
import { ACTIVITY_PATH } from '../../src/spec/endpoints.js'
import { FEED_PATH } from '../../src/spec/paths.js'

/** What a kept step remembers of its exchange (not its bodies or headers). */
export type StepSource = Pick<
  ScaffoldEntry,
  'id' | 'startedDateTime' | 'method' | 'path' | 'status' | 'endpoint' | 'findings'
>

export interface StepDraft {
  readonly exchange: StepSource
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
  /** How many recorded activity flows of this shape it stands for (activity flows only). */
  flows?: number
}

export interface LeftOut {
  readonly exchange: number
  readonly reason: string
}

export interface ScaffoldPlan {
  readonly scenarios: readonly ScenarioDraft[]
  readonly leftOut: readonly LeftOut[]
}

export interface ScaffoldPlanner {
  /** The next exchange of the recording. */
  add(x: ScaffoldEntry): void
  /** Ends the flows still open; the scenarios, in the order their shapes were first complete. */
  finish(): readonly ScenarioDraft[]
}

export interface PlannerOptions {
  readonly idPrefix: string
  readonly roles: (x: ScaffoldEntry) => TokenRole
  /** Told of each exchange left out, as it is met (the planner keeps no list). */
  readonly onLeftOut: (item: LeftOut) => void
}

const MARKER = '${run.marker} scaffolded'
const FLOW_TITLE =
  'A recorded activity flow: created, then used as recorded, with the assertions §4 states for each step'

interface ActivityFlow {
  readonly steps: StepDraft[]
  /** One line per step: what the step asserts and sends, without recorded values (the flow's shape). */
  readonly shape: string[]
  represents: number
  /** Recorded Last-Modified value → index of the step that saw it, and whether a write came after. */
  readonly lastModified: Map<string, SeenLastModified>
  /** Deleted (a DELETE answered 2xx): later exchanges on the id (a read of the gone activity, a second delete) still belong here. */
  deleted: boolean
}

interface SeenLastModified {
  readonly step: number
  writtenSince: boolean
  variable?: string
}

/**
 * Deleted flows kept open for exchanges that still name their activity (repeated deletes, reads after
 * the delete); past this many, the oldest is finished, so memory stays bounded on long recordings.
 */
const DELETED_FLOWS_KEPT = 64

/** All exchanges at once (tests, small recordings); `scaffoldRecording` streams instead. */
export function planScaffold(exchanges: readonly ScaffoldEntry[], options: { idPrefix: string }): ScaffoldPlan {
  const uses: TokenUses = new Map()
  for (const x of exchanges) countTokenUse(uses, x)
  const leftOut: LeftOut[] = []
  const planner = createScaffoldPlanner({
    idPrefix: options.idPrefix,
    roles: createTokenRoles(uses),
    onLeftOut: (item) => leftOut.push(item),
  })
  for (const x of exchanges) planner.add(x)
  return { scenarios: planner.finish(), leftOut }
}

export function createScaffoldPlanner(options: PlannerOptions): ScaffoldPlanner {
  const { roles, onLeftOut } = options
  /** Open flows by the id of the activity they created. */
  const flows = new Map<string, ActivityFlow>()
  /** The deleted flows still open, oldest first (with their id: a server may reuse an id for a new flow). */
  const deletedFlows: { readonly id: string; readonly flow: ActivityFlow }[] = []
  /** Finished flows by shape: the first flow of each shape is the scenario. */
  const flowShapes = new Map<string, ScenarioDraft>()
  const groups = new Map<string, { draft: ScenarioDraft; fingerprints: Set<string> }>()
  const scenarios: ScenarioDraft[] = []
  const counters = new Map<string, number>()
  const newDraft = (kind: string, title: string, tags: string[]): ScenarioDraft => {
    const n = (counters.get(kind) ?? 0) + 1
    counters.set(kind, n)
    const draft: ScenarioDraft = {
      kind,
      id: `${options.idPrefix}-${kind}-${n}`,
      title,
      tags: ['scaffolded', ...tags],
      steps: [],
      represents: 0,
    }
    scenarios.push(draft)
    return draft
  }
  const finishFlow = (id: string, flow: ActivityFlow): void => {
    flows.delete(id)
    const findings = fingerprintOf(flow.steps.flatMap((s) => s.exchange.findings))
    const shape = `${flow.shape.join('\n')}\n${findings}`
    const same = flowShapes.get(shape)
    if (same !== undefined) {
      same.represents += flow.represents
      same.flows = (same.flows ?? 1) + 1
      return
    }
    const draft = newDraft('activity-flow', FLOW_TITLE, ['activity', 'writes'])
    draft.steps.push(...flow.steps)
    draft.represents = flow.represents
    draft.flows = 1
    flowShapes.set(shape, draft)
  }

  const add = (x: ScaffoldEntry): void => {
    const endpoint = x.endpoint
    if (endpoint === undefined) {
      onLeftOut({ exchange: x.id, reason: `${x.method} ${x.path} is no endpoint of §4` })
      return
    }
    const role = roles(x)
    const activityId = endpoint.path.includes('<activity_id>') ? lastSegment(x.path) : undefined
    const flow = activityId === undefined ? undefined : flows.get(activityId)

    if (endpoint.row === 4 && x.status === 201 && x.responseHeaders.has('location')) {
      const id = lastSegment(x.responseHeaders.get('location') as string)
      const reused = flows.get(id)
      if (reused !== undefined) finishFlow(id, reused)
      const created: ActivityFlow = { steps: [], shape: [], represents: 1, lastModified: new Map(), deleted: false }
      const step = buildStep(x, { name: describe(x, 'create the activity'), url: x.path, role, notes: MARKER })
      step.creates = 'headers.location'
      step.capture = { activity: 'headers.location' }
      addStep(created.steps, x, step)
      created.shape.push(stepShape(x, step))
      flows.set(id, created)
      return
    }
    if (flow !== undefined && activityId !== undefined) {
      addFlowStep(flow, x, role)
      if (endpoint.row === 8 && x.status < 300 && !flow.deleted) {
        flow.deleted = true
        deletedFlows.push({ id: activityId, flow })
        const oldest = deletedFlows.length > DELETED_FLOWS_KEPT ? deletedFlows.shift() : undefined
        if (oldest !== undefined && flows.get(oldest.id) === oldest.flow) finishFlow(oldest.id, oldest.flow)
      }
      return
    }
    const missing = isMissingActivity(x, role)
    if (!missing && (endpoint.row === 5 || endpoint.row === 7 || endpoint.row === 8)) {
      onLeftOut({
        exchange: x.id,
        reason: `${x.method} ${x.path}: a write to an activity this recording did not create`,
      })
      return
    }

    const kind = missing ? 'activity-missing' : groupKind(x)
    const key = [
      kind,
      x.method,
      kind === 'activity-read' || kind === 'activity-missing' ? '' : x.path,
      queryShape(x),
      x.status,
      role,
      x.requestHeaders.has('if-modified-since'),
      bodyShape(x),
    ].join('|')
    let group = groups.get(key)
    if (group === undefined) {
      const readOnly = kind !== 'activity-missing' && (x.method === 'GET' || x.method === 'HEAD')
      const draft = newDraft(kind, groupTitle(kind, x), [
        kind.split('-')[0] as string,
        readOnly ? 'read-only' : 'writes',
      ])
      group = { draft, fingerprints: new Set() }
      groups.set(key, group)
    }
    group.draft.represents += 1
    const fingerprint = fingerprintOf(x.findings)
    if (group.draft.steps.length > 0 && group.fingerprints.has(fingerprint)) return
    group.fingerprints.add(fingerprint)
    const n = group.draft.steps.length
    if (kind === 'activity-missing') {
      // The recorded id named an activity that was not there: at run time, one created and deleted first.
      addStep(
        group.draft.steps,
        x,
        {
          name: 'create an activity to delete, so that its URI names a missing activity',
          request: {
            method: 'POST',
            url: FEED_PATH,
            contentType: 'NewFitnessActivity',
            json: {
              type: '${config.activityType}',
              equipment: '${config.equipment}',
              start_time: '${run.farYear | date(1, 1) | specTime}',
              notes: MARKER,
            },
          },
          expect: { status: '2xx' },
          creates: 'headers.location',
          capture: { [`gone${n}`]: 'headers.location' },
        },
        false,
      )
      addStep(
        group.draft.steps,
        x,
        { name: 'delete it', request: { method: 'DELETE', url: `\${gone${n}}` }, expect: { status: '2xx' } },
        false,
      )
      addStep(
        group.draft.steps,
        x,
        buildStep(x, {
          name: describe(x, 'use the missing activity'),
          url: `\${gone${n}}`,
          role,
          ...runTimeDate(x),
          notes: MARKER,
        }),
      )
    } else if (kind === 'activity-read') {
      // The recorded id belongs to the recorded account: take one from the feed at run time.
      addStep(
        group.draft.steps,
        x,
        {
          name: 'take an activity id from the feed',
          request: { method: 'GET', url: FEED_PATH, query: { pageSize: 1 }, accept: 'FitnessActivityFeed' },
          expect: { status: 200 },
          capture: { [`activityId${n}`]: 'body.items[0].uri | lastSegment' },
        },
        false,
      )
      addStep(
        group.draft.steps,
        x,
        buildStep(x, {
          name: describe(x, 'read an activity of the account'),
          url: `${FEED_PATH}/\${activityId${n}}`,
          role,
          ...runTimeDate(x),
        }),
      )
    } else {
      addStep(
        group.draft.steps,
        x,
        buildStep(x, {
          name: describe(x, stepName(kind)),
          url: x.path,
          role,
          ...runTimeDate(x),
          notes: kind === 'create' ? MARKER : undefined,
        }),
      )
      if (kind === 'create') (group.draft.steps.at(-1)?.step as StepObject).creates = 'headers.location'
    }
  }

  return {
    add,
    finish: () => {
      for (const [id, flow] of [...flows]) finishFlow(id, flow)
      return scenarios
    },
  }
}

function addFlowStep(flow: ActivityFlow, x: ScaffoldEntry, role: TokenRole): void {
  const endpoint = x.endpoint
  if (endpoint === undefined) return
  const steps = flow.steps
  flow.represents += 1
  const previous = steps.at(-1)?.exchange
  // A client polling the same read: one step stands for the run of identical exchanges.
  if (
    previous !== undefined &&
    x.findings.length === 0 &&
    previous.method === x.method &&
    previous.status === x.status &&
    !x.requestHeaders.has('if-modified-since') &&
    endpoint.row !== 5
  ) {
    return
  }
  const date = flowDate(flow, x)
  const step = buildStep(x, {
    name: describe(x, stepName('flow', x)),
    url: '${activity}',
    role,
    ...date,
    notes: MARKER,
  })
  addStep(steps, x, step)
  flow.shape.push(stepShape(x, step))
  if (x.method !== 'GET' && x.method !== 'HEAD') for (const seen of flow.lastModified.values()) seen.writtenSince = true
  const lastModified = x.responseHeaders.get('last-modified')
  if (lastModified !== undefined && x.status === 200 && !flow.lastModified.has(lastModified)) {
    flow.lastModified.set(lastModified, { step: steps.length - 1, writtenSince: false })
  }
}

function addStep(steps: StepDraft[], x: ScaffoldEntry, step: StepObject, withFindings = true): void {
  const comments = [
    `recorded ${x.startedDateTime} as exchange #${x.id}: ${x.method} ${x.path}${querySuffix(x)} → ${x.status}`,
  ]
  if (withFindings) {
    for (const line of summarizeFindings(x.findings)) comments.push(line)
    const accept = x.requestHeaders.get('accept')
    if (
      x.endpoint?.accept !== undefined &&
      accept !== undefined &&
      step.request !== undefined &&
      !accept.includes(x.endpoint.accept)
    )
      comments.push(`the client sent Accept: ${accept}; the step sends the media type of §4`)
  }
  const { id, startedDateTime, method, path, status, endpoint, findings } = x
  steps.push({ exchange: { id, startedDateTime, method, path, status, endpoint, findings }, step, comments })
}

/**
 * If-Modified-Since for a flow step, computed at run time: the recorded date's distance from a
 * Last-Modified the flow saw (the same one when it matches, else the latest), applied to the value
 * captured at run time. §4 rule 3 makes the answer certain for the date itself (304, no write since)
 * and for a date before it (200); a later date is left open. Without a Last-Modified to lean on, the
 * date keeps its distance from the request's own time.
 */
function flowDate(flow: ActivityFlow, x: ScaffoldEntry): Pick<StepOptions, 'ifModifiedSince' | 'conditionalStatus'> {
  const ims = x.requestHeaders.get('if-modified-since')
  const sent = ims === undefined ? undefined : parseHttpDate(ims)
  if (ims === undefined || sent === undefined) return {}
  let base: [string, SeenLastModified] | undefined = flow.lastModified.has(ims)
    ? [ims, flow.lastModified.get(ims) as SeenLastModified]
    : undefined
  if (base === undefined)
    for (const seen of flow.lastModified) if (base === undefined || seen[1].step > base[1].step) base = seen
  const baseTime = base === undefined ? undefined : parseHttpDate(base[0])
  if (base === undefined || baseTime === undefined) return runTimeDate(x)
  const [, seen] = base
  if (seen.variable === undefined) {
    seen.variable = `lastModified${seen.step}`
    const capturing = flow.steps[seen.step]?.step as StepObject
    capturing.capture = {
      ...(capturing.capture as Record<string, string> | undefined),
      [seen.variable]: 'headers.last-modified',
    }
    flow.shape[seen.step] = `${flow.shape[seen.step] ?? ''} captures Last-Modified`
  }
  const seconds = Math.round((sent - baseTime) / 1000)
  if (seconds === 0)
    return { ifModifiedSince: `\${${seen.variable}}`, conditionalStatus: seen.writtenSince ? undefined : 304 }
  return {
    ifModifiedSince: `\${${seen.variable} | addSeconds(${seconds}) | httpDate}`,
    conditionalStatus: seconds < 0 ? 200 : undefined,
  }
}

/** A recorded If-Modified-Since as the same distance from the run's start as it had from its request. */
function runTimeDate(x: ScaffoldEntry): Pick<StepOptions, 'ifModifiedSince'> {
  const ims = x.requestHeaders.get('if-modified-since')
  const sent = ims === undefined ? undefined : parseHttpDate(ims)
  const at = Date.parse(x.startedDateTime)
  if (sent === undefined || Number.isNaN(at)) return {}
  const seconds = Math.round((sent - at) / 1000)
  return {
    ifModifiedSince: seconds === 0 ? '${run.now | httpDate}' : `\${run.now | addSeconds(${seconds}) | httpDate}`,
  }
}

/** A read or write of an activity the recording did not create, answered "not found": it names a missing activity. */
function isMissingActivity(x: ScaffoldEntry, role: TokenRole): boolean {
  const row = x.endpoint?.row
  const onActivity = row === 3 || row === 5 || row === 7 || row === 8 || row === 9
  return onActivity && (x.status === 404 || x.status === 410) && (role === 'token' || role === 'other-token')
}

/**
 * A flow step without its recorded values: method, §4 row, status, response media type, token role,
 * query names, whether If-Modified-Since repeats a captured date, and what the step asserts.
 */
function stepShape(x: ScaffoldEntry, step: StepObject): string {
  const request = step.request as { auth?: string; headers?: Record<string, string> }
  const ims = request.headers?.['if-modified-since']
  const mediaType = (x.responseHeaders.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
  const query = x.query
    .map(([name]) => name)
    .sort()
    .join('&')
  return [
    x.method,
    x.endpoint?.row,
    x.status,
    mediaType,
    request.auth ?? 'token',
    query,
    ims === undefined ? '' : ims.startsWith('${') ? 'ims:captured' : 'ims:recorded',
    JSON.stringify(step.expect),
  ].join(' ')
}

/** Rule ids of a draft: what its steps assert, plus the rules of the response findings it keeps. */
export function rulesOfDraft(draft: ScenarioDraft): string[] {
  return [...new Set(draft.steps.flatMap((s) => rulesOfStep(s.exchange, s.step)))].sort()
}

function groupKind(x: ScaffoldEntry): string {
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

function groupTitle(kind: string, x: ScaffoldEntry): string {
  const byId = kind === 'activity-read' || kind === 'activity-missing'
  const request = `${x.method} ${byId ? ACTIVITY_PATH : x.path}${byId ? '' : querySuffix(x)}`
  if (kind === 'activity-missing')
    return `A recorded ${request} of a missing activity answers as recorded (status ${x.status} recorded)`
  return `A recorded ${request} answers as §4 states (status ${x.status} recorded)`
}

function stepName(kind: string, x?: ScaffoldEntry): string {
  if (kind === 'flow' && x !== undefined) {
    return (
      {
        GET: 'read the activity',
        HEAD: 'ask for the headers of the activity',
        PUT: 'edit the activity',
        POST: 'add to the live activity',
        DELETE: 'delete the activity',
      }[x.method] ?? 'use the activity'
    )
  }
  return (
    {
      user: 'read the entry point',
      'profile-edit': 'edit the profile',
      create: 'create an activity',
      feed: 'read the feed',
      'feed-paging': 'read a page of the feed',
      'feed-scope': 'read the feed in a time scope',
      'feed-conditional': 'read the feed conditionally',
    }[kind] ?? 'send the recorded request'
  )
}

function describe(x: ScaffoldEntry, what: string): string {
  return `${what} (recorded #${x.id}, ${x.status})`
}

function querySuffix(x: ScaffoldEntry): string {
  return x.query.length === 0
    ? ''
    : `?${new URLSearchParams(x.query.map(([a, b]): [string, string] => [a, b])).toString()}`
}

function queryShape(x: ScaffoldEntry): string {
  return [...x.query]
    .map(([a, b]) => `${a}=${b}`)
    .sort()
    .join('&')
}

function bodyShape(x: ScaffoldEntry): string {
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
