// One probe per mutant: a few requests that answer "does this server show the mutant's defining
// misbehaviour?". mutants.test.ts expects true from the mutant and false from the reference server,
// so each probe proves both that the mutant is broken and where.
import type { MutantName } from '../../../reference-server/faults/mutants.js'
import type { RunningReferenceServer } from '../../../reference-server/index.js'
import {
  createTestClock,
  header,
  json,
  rawExchange,
  send,
  splitRaw,
  walkFeed,
  type Exchange,
  type Feed,
  type SendOptions,
} from './helpers.js'

export type Probe = (server: ProbeServer) => Promise<boolean>

/** A running server, its test clock, and shorthands for alice's requests. */
export class ProbeServer {
  constructor(
    readonly running: RunningReferenceServer,
    readonly clock: ReturnType<typeof createTestClock>,
  ) {}

  get tokens() {
    return this.running.tokens
  }

  send(path: string, options: Partial<SendOptions> = {}): Promise<Exchange> {
    return send(this.running.url, path, { token: this.tokens.token, ...options })
  }

  async json<T = Record<string, unknown>>(path: string, options: Partial<SendOptions> = {}): Promise<T> {
    return json<T>(await this.send(path, options))
  }

  feed(query = ''): Promise<Feed> {
    return this.json<Feed>(`/fitnessActivities${query}`)
  }

  /** POSTs a new activity (§2.4) and returns the answer; `start` is a spec time. */
  create(fields: Record<string, unknown> = {}, token = this.tokens.token): Promise<Exchange> {
    const body = {
      type: 'Running',
      equipment: 'None',
      start_time: 'Sun, 15 Mar 1987 00:00:00',
      notes: 'probe',
      ...fields,
    }
    return this.send('/fitnessActivities', { method: 'POST', token, type: 'NewFitnessActivity', body })
  }

  /** Creates an activity and returns its path (Location), whatever form the mutant gives it. */
  async created(fields: Record<string, unknown> = {}, token = this.tokens.token): Promise<string> {
    const location = header(await this.create(fields, token), 'location')
    if (location === undefined) throw new Error('the create gave no Location')
    return location.startsWith('http') ? new URL(location).pathname : location
  }

  edit(path: string, body: unknown, token = this.tokens.token): Promise<Exchange> {
    return this.send(path, { method: 'PUT', token, type: 'FitnessActivity', body })
  }

  /** The bytes after the head of a raw exchange: a body where there must be none shows here. */
  async bytesAfterHead(head: string, body = ''): Promise<number> {
    const { rest } = splitRaw(await rawExchange(this.running.url, head, body))
    return rest.length
  }

  async ids(query: string): Promise<string[]> {
    return (await this.feed(query)).items.map((item) => item.uri.split('/').pop() ?? '')
  }
}

const idOf = (path: string) => path.split('/').pop() ?? ''
const march = (first: string, last: string) => `?noEarlierThan=1987-03-${first}&noLaterThan=1987-03-${last}`
const withPath = {
  path: [
    { timestamp: 0, latitude: 45.76, longitude: 4.83, altitude: 170, type: 'start' },
    { timestamp: 600, latitude: 45.77, longitude: 4.84, altitude: 171, type: 'end' },
  ],
}
const auth = (token: string) => `Authorization: Bearer ${token}`
const livePoint = { path: [{ timestamp: 60, latitude: 45.78, longitude: 4.85, altitude: 172, type: 'gps' }] }
const startPoint = { timestamp: 0, latitude: 45.77, longitude: 4.84, altitude: 170, type: 'start' }

/** Creates three activities around 15 March 1987 and says which of them a start-time scope lists (§4 rule 1). */
async function scopedIds(server: ProbeServer, query: string): Promise<Set<'before' | 'onBoundary' | 'after'>> {
  const created = {
    before: idOf(await server.created({ start_time: 'Sat, 14 Mar 1987 00:00:00' })),
    onBoundary: idOf(await server.created({ start_time: 'Sun, 15 Mar 1987 00:00:00' })),
    after: idOf(await server.created({ start_time: 'Mon, 16 Mar 1987 12:00:00' })),
  }
  const listed = await server.ids(query)
  return new Set((['before', 'onBoundary', 'after'] as const).filter((which) => listed.includes(created[which])))
}

/** An activity created on 20 March 1987 and whether a feed scoped to it and a modification bound lists it. */
async function listedWithModifiedBound(server: ProbeServer, bound: string): Promise<boolean> {
  const id = idOf(await server.created({ start_time: 'Fri, 20 Mar 1987 08:00:00' }))
  return (await server.ids(`${march('20', '20')}&${bound}`)).includes(id)
}

/** The activity's Last-Modified, then the clock moved on by a minute. */
async function lastModifiedThenLater(server: ProbeServer, path: string): Promise<string> {
  const lastModified = header(await server.send(path), 'last-modified') ?? ''
  server.clock.advance(60)
  return lastModified
}

/** The test clock's date, YYYY-MM-DD: the modification date of anything changed now. */
function today(server: ProbeServer): string {
  return new Date(server.clock.now()).toISOString().slice(0, 10)
}

async function ownActivity(server: ProbeServer): Promise<string> {
  return server.created(withPath)
}

export const probes: Record<MutantName, Probe> = {
  // paging and page size
  'default-page-size-20': async (s) => (await s.feed()).items.length === 20,
  'page-size-ignored': async (s) => (await s.feed('?pageSize=4')).items.length === 25,
  'page-size-off-by-one': async (s) => (await s.feed('?pageSize=4')).items.length === 5,
  'previous-drops-page-size': async (s) =>
    !new URL((await s.feed('?pageSize=4')).previous ?? '').searchParams.has('pageSize'),
  'previous-without-page': async (s) => !new URL((await s.feed('?pageSize=4')).previous ?? '').searchParams.has('page'),
  'previous-relative': async (s) => ((await s.feed('?pageSize=4')).previous ?? '').startsWith('/'),
  'page-repeats-item': async (s) => {
    const uris = (await walkFeed(s.running.url, s.tokens.token, '/fitnessActivities?pageSize=4')).flatMap((page) =>
      page.items.map((item) => item.uri),
    )
    return new Set(uris).size < uris.length
  },
  'page-skips-item': async (s) => {
    const pages = await walkFeed(s.running.url, s.tokens.token, '/fitnessActivities?pageSize=4')
    return new Set(pages.flatMap((page) => page.items.map((item) => item.uri))).size < (pages[0]?.size ?? 0)
  },
  'size-counts-page': async (s) => (await s.feed('?pageSize=4')).size === 4,
  'scoped-previous-present': async (s) => (await s.feed('?noEarlierThan=2026-01-01')).previous !== undefined,
  'scoped-page-items-missing': async (s) =>
    (await s.json('/fitnessActivities?noLaterThan=2099-12-31')).items === undefined,

  // date scopes
  'no-earlier-than-exclusive': async (s) => !(await scopedIds(s, march('15', '31'))).has('onBoundary'),
  'no-earlier-than-ignored': async (s) => (await scopedIds(s, march('15', '31'))).has('before'),
  'no-earlier-than-on-modified-date': async (s) => (await scopedIds(s, march('15', '31'))).has('before'),
  'no-later-than-exclusive': async (s) => !(await scopedIds(s, march('01', '15'))).has('onBoundary'),
  // Ignoring the upper bound lets every later activity match: a page size that holds them all.
  'no-later-than-ignored': async (s) => (await scopedIds(s, `${march('01', '15')}&pageSize=1000`)).has('after'),
  // The test clock stands at 22 November 2026: bounds two days after and before it.
  'modified-no-earlier-than-ignored': (s) => listedWithModifiedBound(s, 'modifiedNoEarlierThan=2026-11-24'),
  'modified-no-earlier-than-inverted': (s) => listedWithModifiedBound(s, 'modifiedNoEarlierThan=2026-11-24'),
  'modified-no-later-than-ignored': (s) => listedWithModifiedBound(s, 'modifiedNoLaterThan=2026-11-20'),
  'modified-no-later-than-inverted': (s) => listedWithModifiedBound(s, 'modifiedNoLaterThan=2026-11-20'),

  // conditional reads
  'feed-never-304': async (s) => {
    const since = header(await s.send('/fitnessActivities'), 'last-modified') ?? ''
    return (await s.send('/fitnessActivities', { headers: { 'if-modified-since': since } })).status === 200
  },
  'feed-304-with-body': async (s) => {
    const since = header(await s.send('/fitnessActivities'), 'last-modified') ?? ''
    return (
      (await s.bytesAfterHead(
        `GET /fitnessActivities HTTP/1.1\r\n${auth(s.tokens.token)}\r\nIf-Modified-Since: ${since}`,
      )) > 0
    )
  },
  'feed-stale-304': async (s) => {
    const oldest = (await s.feed('?noLaterThan=2025-12-31')).items[0]?.uri ?? ''
    const since = await lastModifiedThenLater(s, '/fitnessActivities')
    await s.send(oldest, { method: 'DELETE' })
    return (await s.send('/fitnessActivities', { headers: { 'if-modified-since': since } })).status === 304
  },
  'activity-never-304': async (s) => {
    const path = await ownActivity(s)
    const since = header(await s.send(path), 'last-modified') ?? ''
    return (await s.send(path, { headers: { 'if-modified-since': since } })).status === 200
  },
  'activity-304-with-body': async (s) => {
    const path = await ownActivity(s)
    const since = header(await s.send(path), 'last-modified') ?? ''
    return (
      (await s.bytesAfterHead(`GET ${path} HTTP/1.1\r\n${auth(s.tokens.token)}\r\nIf-Modified-Since: ${since}`)) > 0
    )
  },
  'activity-stale-304': async (s) => {
    const path = await ownActivity(s)
    const since = await lastModifiedThenLater(s, path)
    await s.edit(path, { notes: 'changed' })
    return (await s.send(path, { headers: { 'if-modified-since': since } })).status === 304
  },
  'ims-ignored-with-scope': async (s) => {
    const since = header(await s.send('/fitnessActivities'), 'last-modified') ?? ''
    return (
      (await s.send('/fitnessActivities?noEarlierThan=2026-01-01', { headers: { 'if-modified-since': since } }))
        .status === 200
    )
  },

  // Last-Modified and Location
  'no-last-modified-on-read': async (s) => header(await s.send(await ownActivity(s)), 'last-modified') === undefined,
  'last-modified-not-gmt': async (s) =>
    (header(await s.send(await ownActivity(s)), 'last-modified') ?? '').endsWith(' UTC'),
  'no-last-modified-on-edit': async (s) =>
    header(await s.edit(await ownActivity(s), { notes: 'x' }), 'last-modified') === undefined,
  'last-modified-iso-on-edit': async (s) =>
    /^\d{4}-\d{2}-\d{2}T/.test(header(await s.edit(await ownActivity(s), { notes: 'x' }), 'last-modified') ?? ''),
  'last-modified-not-advancing': async (s) => {
    const path = await ownActivity(s)
    const before = await lastModifiedThenLater(s, path)
    return header(await s.edit(path, { notes: 'x' }), 'last-modified') === before
  },
  'live-update-keeps-last-modified': async (s) => {
    const path = await ownActivity(s)
    const before = await lastModifiedThenLater(s, path)
    await s.send(path, {
      method: 'POST',
      type: 'LiveFitnessActivityUpdate',
      body: { path: [{ timestamp: 900, latitude: 45.78, longitude: 4.85, altitude: 172, type: 'gps' }] },
    })
    return header(await s.send(path), 'last-modified') === before
  },
  'location-absolute': async (s) => /^https?:/.test(header(await s.create(), 'location') ?? ''),
  'location-missing': async (s) => {
    const created = await s.create()
    return created.status === 201 && header(created, 'location') === undefined
  },

  // media types
  'user-media-type-wrong': async (s) =>
    header(await s.send('/user'), 'content-type') !== 'application/vnd.com.service.User+json',
  'feed-media-type-wrong': async (s) =>
    header(await s.send('/fitnessActivities'), 'content-type') !==
    'application/vnd.com.service.FitnessActivityFeed+json',
  'activity-media-type-wrong': async (s) =>
    header(await s.send(await ownActivity(s)), 'content-type') !== 'application/vnd.com.service.FitnessActivity+json',
  'profile-media-type-wrong': async (s) =>
    header(await s.send('/profile', { method: 'PUT', type: 'Profile', body: {} }), 'content-type') !==
    'application/vnd.com.service.Profile+json',
  'error-media-type-wrong': async (s) =>
    header(await s.send('/user', { token: s.tokens.revokedToken }), 'content-type') !==
    'application/vnd.com.service.ErrorMessage+json',

  // status codes and bodies
  'create-answers-200': async (s) => (await s.create()).status === 200,
  'create-with-body': async (s) => (await s.create()).text !== '',
  'live-update-answers-200': async (s) =>
    (await s.send(await ownActivity(s), { method: 'POST', type: 'LiveFitnessActivityUpdate', body: { path: [] } }))
      .status === 200,
  'live-update-204-with-body': async (s) => {
    const path = await ownActivity(s)
    const body = '{"path":[]}'
    const head = `POST ${path} HTTP/1.1\r\n${auth(s.tokens.token)}\r\nContent-Type: application/vnd.com.service.LiveFitnessActivityUpdate+json\r\nContent-Length: ${body.length}`
    return (await s.bytesAfterHead(head, body)) > 0
  },
  'edit-answers-201': async (s) => (await s.edit(await ownActivity(s), { notes: 'x' })).status === 201,
  'delete-answers-200': async (s) => (await s.send(await ownActivity(s), { method: 'DELETE' })).status === 200,
  'delete-204-with-body': async (s) =>
    (await s.bytesAfterHead(`DELETE ${await ownActivity(s)} HTTP/1.1\r\n${auth(s.tokens.token)}`)) > 0,

  // field types and links
  'user-body-not-json': async (s) => {
    try {
      JSON.parse((await s.send('/user')).text)
      return false
    } catch {
      return true
    }
  },
  'user-id-string': async (s) => typeof (await s.json('/user')).userID === 'string',
  'user-link-absolute': async (s) => String((await s.json('/user')).fitness_activities).startsWith('http'),
  'feed-item-duration-string': async (s) =>
    typeof (await s.json<{ items: Record<string, unknown>[] }>('/fitnessActivities')).items[0]?.duration === 'string',
  'feed-start-time-iso': async (s) => /^\d{4}-\d{2}-\d{2}T/.test((await s.feed()).items[0]?.start_time ?? ''),
  'feed-has-map-boolean': async (s) =>
    typeof (await s.json<{ items: Record<string, unknown>[] }>('/fitnessActivities')).items[0]?.has_map === 'boolean',
  'feed-item-uri-absolute': async (s) => ((await s.feed()).items[0]?.uri ?? '').startsWith('http'),
  'total-distance-string': async (s) => typeof (await s.json(await ownActivity(s))).total_distance === 'string',
  'path-timestamp-string': async (s) =>
    typeof (await s.json<{ path: Record<string, unknown>[] }>(await ownActivity(s))).path[0]?.timestamp === 'string',
  'activity-start-time-iso': async (s) =>
    /^\d{4}-\d{2}-\d{2}T/.test(String((await s.json(await ownActivity(s))).start_time)),
  'has-map-boolean': async (s) => typeof (await s.json(await ownActivity(s))).has_map === 'boolean',
  'activity-uri-missing': async (s) => (await s.json(await ownActivity(s))).uri === undefined,
  'comments-link-absolute': async (s) => String((await s.json(await ownActivity(s))).comments).startsWith('http'),
  'elite-string': async (s) =>
    typeof (await s.json('/profile', { method: 'PUT', type: 'Profile', body: {} })).elite === 'string',

  // create, live update and edits
  'create-drops-notes': async (s) => (await s.json(await s.created({ notes: 'kept?' }))).notes === undefined,
  'create-start-time-shifted': async (s) =>
    (await s.json(await s.created({ start_time: 'Sun, 15 Mar 1987 07:00:00' }))).start_time !==
    'Sun, 15 Mar 1987 07:00:00',
  'live-update-points-dropped': async (s) => {
    const path = await ownActivity(s)
    await s.send(path, {
      method: 'POST',
      type: 'LiveFitnessActivityUpdate',
      body: { path: [{ timestamp: 900, latitude: 45.78, longitude: 4.85, altitude: 172, type: 'gps' }] },
    })
    return (await s.json<{ path: unknown[] }>(path)).path.length === withPath.path.length
  },
  'edit-notes-ignored': async (s) => json(await s.edit(await ownActivity(s), { notes: 'edited' })).notes !== 'edited',
  'edit-not-persisted': async (s) => {
    const path = await ownActivity(s)
    const answered = json(await s.edit(path, { notes: 'edited' })).notes
    return answered === 'edited' && (await s.json(path)).notes !== 'edited'
  },
  'edit-applies-uri': async (s) => {
    const path = await ownActivity(s)
    await s.edit(path, { notes: 'x', uri: '/fitnessActivities/elsewhere' })
    return (await s.json(path)).uri === '/fitnessActivities/elsewhere'
  },
  'edit-applies-user-id': async (s) => {
    const path = await ownActivity(s)
    await s.edit(path, { notes: 'x', userID: 1987 })
    return (await s.json(path)).userID === 1987
  },
  'edit-refuses-non-editable': async (s) =>
    (await s.edit(await ownActivity(s), { notes: 'x', uri: '/elsewhere', userID: 1987 })).status === 400,
  'edit-partial-response': async (s) => !('type' in json(await s.edit(await ownActivity(s), { notes: 'x' }))),
  'edit-response-stale': async (s) => {
    const path = await ownActivity(s)
    const answered = json(await s.edit(path, { notes: 'edited' })).notes
    return answered !== 'edited' && (await s.json(path)).notes === 'edited'
  },
  'profile-edit-ignored': async (s) => {
    await s.send('/profile', { method: 'PUT', type: 'Profile', body: { athlete_type: 'Rower' } })
    return (await s.json('/profile', { method: 'PUT', type: 'Profile', body: {} })).athlete_type !== 'Rower'
  },
  'profile-edit-partial-response': async (s) =>
    !('name' in (await s.json('/profile', { method: 'PUT', type: 'Profile', body: { athlete_type: 'Rower' } }))),

  // delete
  'delete-keeps-activity': async (s) => {
    const path = await ownActivity(s)
    await s.send(path, { method: 'DELETE' })
    return (await s.send(path)).status === 200
  },
  'delete-leaves-feed-item': async (s) => {
    const path = await s.created({ start_time: 'Tue, 24 Mar 1987 08:00:00' })
    await s.send(path, { method: 'DELETE' })
    return (await s.send(path)).status === 404 && (await s.ids(march('24', '24'))).includes(idOf(path))
  },

  // HEAD
  'head-with-body': async (s) =>
    (await s.bytesAfterHead(`HEAD ${await ownActivity(s)} HTTP/1.1\r\n${auth(s.tokens.token)}`)) > 0,
  'head-no-content-type': async (s) =>
    header(await s.send(await ownActivity(s), { method: 'HEAD' }), 'content-type') === undefined,
  'no-last-modified-on-head': async (s) =>
    header(await s.send(await ownActivity(s), { method: 'HEAD' }), 'last-modified') === undefined,
  'head-wrong-content-length': async (s) => {
    const path = await ownActivity(s)
    return (
      Number(header(await s.send(path, { method: 'HEAD' }), 'content-length')) !==
      Buffer.byteLength((await s.send(path)).text)
    )
  },
  'head-last-modified-now': async (s) => {
    const path = await ownActivity(s)
    const read = await lastModifiedThenLater(s, path)
    return header(await s.send(path, { method: 'HEAD' }), 'last-modified') !== read
  },
  'get-last-modified-now': async (s) => {
    const path = await ownActivity(s)
    s.clock.advance(60)
    return (
      header(await s.send(path), 'last-modified') !== header(await s.send(path, { method: 'HEAD' }), 'last-modified')
    )
  },

  // authentication, isolation and the three 403s
  'no-token-served': async (s) => (await s.send('/user', { token: null })).status === 200,
  'invalid-token-served': async (s) => (await s.send('/user', { token: 'never-issued' })).status === 200,
  'token-prefix-matched': async (s) => (await s.send('/user', { token: `${s.tokens.token}x` })).status === 200,
  'read-other-users-activity': async (s) => (await s.send(await s.created({}, s.tokens.otherToken))).status === 200,
  'edit-other-users-activity': async (s) =>
    (await s.edit(await s.created({}, s.tokens.otherToken), { notes: 'x' })).status === 200,
  'delete-other-users-activity': async (s) =>
    (await s.send(await s.created({}, s.tokens.otherToken), { method: 'DELETE' })).status === 204,
  'feed-lists-other-users-activities': async (s) => {
    const theirs = await s.created({ start_time: 'Sat, 28 Mar 1987 08:00:00' }, s.tokens.otherToken)
    return (await s.ids(march('28', '28'))).includes(idOf(theirs))
  },
  'revoked-answers-401': async (s) => (await s.send('/user', { token: s.tokens.revokedToken })).status === 401,
  'revoked-without-delete-health': async (s) =>
    !('delete_health' in (await s.json('/user', { token: s.tokens.revokedToken }))),
  'revoked-token-can-create': async (s) => (await s.create({}, s.tokens.revokedToken)).status === 201,
  'revoked-delete-health-false': async (s) =>
    (await s.json('/user', { token: s.tokens.revokedDeleteToken })).delete_health === false,
  'insufficient-with-delete-health': async (s) =>
    'delete_health' in (await s.json('/fitnessActivities', { token: s.tokens.limitedToken })),
  'limited-token-can-create': async (s) => (await s.create({}, s.tokens.limitedToken)).status === 201,
  'reason-misspelled': async (s) =>
    (await s.json('/fitnessActivities', { token: s.tokens.limitedToken })).reason !== 'Insufficient permission',

  // robustness
  'bad-body-500': async (s) =>
    (await s.send('/fitnessActivities', { method: 'POST', type: 'NewFitnessActivity', body: '{"type": "Run' }))
      .status === 500,
  'missing-activity-500': async (s) => (await s.send('/fitnessActivities/999999')).status === 500,
  'bad-body-creates-activity': async (s) =>
    (await s.send('/fitnessActivities', { method: 'POST', type: 'NewFitnessActivity', body: '{"type": "Run' }))
      .status === 201,
  'bad-body-refused-but-recorded': async (s) => {
    const cutOff =
      '{"type": "Running", "equipment": "None", "start_time": "Thu, 26 Mar 1987 08:00:00", "notes": "probe",'
    const refused = await s.send('/fitnessActivities', { method: 'POST', type: 'NewFitnessActivity', body: cutOff })
    return refused.status === 400 && (await s.ids(march('26', '26'))).length > 0
  },

  // the permission matrix
  'limited-token-reads-activity': async (s) =>
    (await s.send(await s.created(), { token: s.tokens.limitedToken })).status === 200,
  'limited-token-edits-activity': async (s) =>
    (await s.edit(await s.created(), { notes: 'limited' }, s.tokens.limitedToken)).status === 200,
  'limited-token-deletes-activity': async (s) =>
    (await s.send(await s.created(), { method: 'DELETE', token: s.tokens.limitedToken })).status === 204,
  'limited-token-live-updates': async (s) =>
    (
      await s.send(await s.created(), {
        method: 'POST',
        token: s.tokens.limitedToken,
        type: 'LiveFitnessActivityUpdate',
        body: livePoint,
      })
    ).status === 204,
  'revoked-token-heads-activity': async (s) =>
    (await s.send(await s.created(), { method: 'HEAD', token: s.tokens.revokedToken })).status === 200,
  'revoked-delete-health-false-on-edit': async (s) =>
    json(await s.edit(await s.created(), { notes: 'revoked' }, s.tokens.revokedDeleteToken)).delete_health === false,
  'revoked-token-edits-profile': async (s) =>
    (await s.send('/profile', { method: 'PUT', token: s.tokens.revokedToken, type: 'Profile', body: {} })).status ===
    200,
  'no-token-edits-profile': async (s) =>
    (await s.send('/profile', { method: 'PUT', token: null, type: 'Profile', body: {} })).status === 200,
  'revoked-token-deletes-activity': async (s) =>
    (await s.send(await s.created(), { method: 'DELETE', token: s.tokens.revokedToken })).status === 204,
  'revoked-delete-token-reads-activity': async (s) =>
    (await s.send(await s.created(), { token: s.tokens.revokedDeleteToken })).status === 200,
  'revoked-delete-token-edits-profile': async (s) =>
    (await s.send('/profile', { method: 'PUT', token: s.tokens.revokedDeleteToken, type: 'Profile', body: {} }))
      .status === 200,
  'no-token-live-updates': async (s) =>
    (
      await s.send(await s.created(), {
        method: 'POST',
        token: null,
        type: 'LiveFitnessActivityUpdate',
        body: livePoint,
      })
    ).status === 204,
  'invalid-token-edits-profile': async (s) =>
    (await s.send('/profile', { method: 'PUT', token: 'never-issued', type: 'Profile', body: {} })).status === 200,
  'live-update-other-users-activity': async (s) =>
    (
      await s.send(await s.created({}, s.tokens.otherToken), {
        method: 'POST',
        type: 'LiveFitnessActivityUpdate',
        body: livePoint,
      })
    ).status === 204,

  // issue 12: checks that were missing or too weak
  'activity-304-only-on-exact-date': async (s) => {
    const path = await ownActivity(s)
    s.clock.advance(60)
    const later = header(await s.send(path), 'date') ?? ''
    return (await s.send(path, { headers: { 'if-modified-since': later } })).status === 200
  },
  'feed-304-only-on-exact-date': async (s) => {
    s.clock.advance(60)
    const later = header(await s.send('/fitnessActivities'), 'date') ?? ''
    return (await s.send('/fitnessActivities', { headers: { 'if-modified-since': later } })).status === 200
  },
  'previous-drops-small-page-size': async (s) =>
    !new URL((await s.feed('?pageSize=2')).previous ?? '').searchParams.has('pageSize'),
  'error-message-on-401': async (s) =>
    (header(await s.send('/user', { token: 'never-issued' }), 'content-type') ?? '').includes('ErrorMessage'),
  'error-message-on-404': async (s) =>
    (header(await s.send('/fitnessActivities/999999'), 'content-type') ?? '').includes('ErrorMessage'),
  'feed-item-start-time-shifted': async (s) => {
    const path = await s.created()
    const item = (await s.feed(march('15', '15'))).items.find((candidate) => candidate.uri === path)
    return item?.start_time !== (await s.json(path)).start_time
  },
  'feed-item-uri-other-path': async (s) => ((await s.feed()).items[0]?.uri ?? '').startsWith('/fitnessActivity/'),
  // The probe's activity starts on Sunday 15 March 1987.
  'start-time-wrong-weekday': async (s) => !String((await s.json(await s.created())).start_time).startsWith('Sun, '),
  'previous-names-itself': async (s) => {
    const path = await s.created()
    return (await s.json(path)).previous === path
  },
  'activity-user-id-differs': async (s) =>
    (await s.json(await ownActivity(s))).userID !== (await s.json('/user')).userID,
  'edit-refuses-full-representation': async (s) => {
    const path = await ownActivity(s)
    return (await s.edit(path, { ...(await s.json(path)), notes: 'sent back whole' })).status === 400
  },
  'modified-no-earlier-than-exclusive': async (s) =>
    !(await listedWithModifiedBound(s, `modifiedNoEarlierThan=${today(s)}`)),
  'modified-no-later-than-exclusive': async (s) =>
    !(await listedWithModifiedBound(s, `modifiedNoLaterThan=${today(s)}`)),
  'feed-empty-object-after-delete': async (s) => {
    await s.send(await s.created(), { method: 'DELETE' })
    return (await s.json(`/fitnessActivities${march('15', '15')}`)).items === undefined
  },
  'profile-empty-edit-partial': async (s) =>
    !('large_picture' in (await s.json('/profile', { method: 'PUT', type: 'Profile', body: {} }))),

  // The account survey's mutants, on the realistic history (their `mode`).
  'stored-item-start-shifted': async (s) => {
    const item = (await s.feed()).items[0]!
    return item.start_time !== (await s.json(item.uri)).start_time
  },
  'stored-activity-owner-differs': async (s) =>
    (await s.json((await s.feed()).items[0]!.uri)).userID !== (await s.json('/user')).userID,
  'other-user-shares-user-id': async (s) =>
    (await s.json('/user', { token: s.tokens.otherToken })).userID === (await s.json('/user')).userID,
  'head-length-short-for-large-body': async (s) => {
    for (const item of (await s.feed('?pageSize=1000')).items) {
      const get = await s.send(item.uri)
      if (Buffer.byteLength(get.text) <= 65_536) continue
      return (
        header(await s.send(item.uri, { method: 'HEAD' }), 'content-length') !== String(Buffer.byteLength(get.text))
      )
    }
    return false
  },
  'head-length-counts-gzip': async (s) => {
    const uri = (await s.feed()).items[0]!.uri
    return (
      header(await s.send(uri, { method: 'HEAD' }), 'content-length') !==
      String(Buffer.byteLength((await s.send(uri)).text))
    )
  },
  'ims-obsolete-forms-ignored': async (s) => {
    const uri = (await s.feed()).items[0]!.uri
    const lastModified = new Date(header(await s.send(uri), 'last-modified')!)
    // asctime: `Sun Nov  6 08:49:37 1994`
    const asctime = lastModified
      .toUTCString()
      .replace(
        /^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/,
        (_, w: string, d: string, m: string, y: string, t: string) =>
          `${w} ${m} ${String(Number(d)).padStart(2, ' ')} ${t} ${y}`,
      )
    return (await s.send(uri, { headers: { 'if-modified-since': asctime } })).status === 200
  },
  'ims-invalid-date-304': async (s) =>
    (await s.send((await s.feed()).items[0]!.uri, { headers: { 'if-modified-since': 'not a date' } })).status === 304,
  'head-304-when-modified': async (s) =>
    (
      await s.send((await s.feed()).items[0]!.uri, {
        method: 'HEAD',
        headers: { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      })
    ).status === 304,
  'previous-skips-same-day': async (s) => {
    const items = (await s.feed('?pageSize=1000')).items
    // Newest first (the reference's order): the first pair on one day, the later one listed first.
    const index = items.findIndex((item, i) => i + 1 < items.length && dayOf(item) === dayOf(items[i + 1]!))
    return (await s.json(items[index]!.uri)).previous !== items[index + 1]!.uri
  },
  'modified-scope-on-creation-date': async (s) => {
    for (const item of (await s.feed('?pageSize=1000')).items) {
      const lastModified = Date.parse(header(await s.send(item.uri, { method: 'HEAD' }), 'last-modified')!)
      if (lastModified - Date.parse(`${dayOf(item)}T00:00:00Z`) < 3 * 86_400_000) continue
      const since = new Date(lastModified - 86_400_000).toISOString().slice(0, 10)
      return !(await s.ids(`?modifiedNoEarlierThan=${since}&pageSize=1000`)).includes(idOf(item.uri))
    }
    return false
  },
  'start-scope-in-other-zone': async (s) => {
    const item = (await s.feed('?pageSize=1000')).items.find((candidate) =>
      / 0[0-2]:/.test(String(candidate.start_time)),
    )!
    return !(await s.ids(`?noEarlierThan=${dayOf(item)}&noLaterThan=${dayOf(item)}&pageSize=1000`)).includes(
      idOf(item.uri),
    )
  },
  'scoped-page-ignores-page-size': async (s) =>
    (await s.feed('?noEarlierThan=2014-01-01&noLaterThan=2026-12-31&pageSize=2')).items.length > 2,
  'large-page-size-capped': async (s) => (await s.feed('?pageSize=200')).items.length === 100,
  'page-size-equal-to-size-500': async (s) =>
    (await s.send(`/fitnessActivities?pageSize=${(await s.feed()).size}`)).status === 500,
  'refusal-as-activity': async (s) =>
    (header(await s.send(await s.created(), { token: null }), 'content-type') ?? '').includes('FitnessActivity+json'),
  'notes-normalized-nfc': async (s) => (await s.json(await s.created({ notes: 'Cafe\u0301' }))).notes !== 'Cafe\u0301',
  'long-notes-cut-in-pair': async (s) => {
    const notes = '🏃'.repeat(3_000)
    return (await s.json(await s.created({ notes }))).notes !== notes
  },
  'long-path-cut': async (s) => {
    const path = Array.from({ length: 1_500 }, (_, i) => ({
      timestamp: i,
      latitude: 45 + i / 1e5,
      longitude: 4.8,
      altitude: 170,
      type: 'gps',
    }))
    return ((await s.json(await s.created({ path }))).path as unknown[]).length !== 1_500
  },
  'midnight-start-as-noon': async (s) =>
    (await s.json(await s.created({ start_time: 'Sun, 15 Mar 1987 00:00:00' }))).start_time !==
    'Sun, 15 Mar 1987 00:00:00',
  'edit-notes-mojibake': async (s) => {
    const path = await s.created()
    await s.edit(path, { notes: 'Zürich 中文' })
    return (await s.json(path)).notes !== 'Zürich 中文'
  },
  'edit-empty-notes-500': async (s) => (await s.edit(await s.created(), { notes: '' })).status === 500,
  'repeated-edit-appends': async (s) => {
    const path = await s.created()
    await s.edit(path, { notes: 'same' })
    await s.edit(path, { notes: 'same' })
    return (await s.json(path)).notes !== 'same'
  },
  'second-delete-restores': async (s) => {
    const path = await s.created()
    await s.send(path, { method: 'DELETE' })
    await s.send(path, { method: 'DELETE' })
    return (await s.send(path)).status === 200
  },
  'deleted-accepts-edit': async (s) => {
    const path = await s.created()
    await s.send(path, { method: 'DELETE' })
    return (await s.edit(path, { notes: 'after delete' })).status === 200
  },
  'deleted-accepts-live-update': async (s) => {
    const path = await s.created()
    await s.send(path, { method: 'DELETE' })
    return (await s.send(path, { method: 'POST', type: 'LiveFitnessActivityUpdate', body: livePoint })).status === 204
  },
  'create-id-race': async (s) => {
    const together = await Promise.all([1, 2, 3].map((n) => s.created({ notes: `together ${n}` })))
    return new Set(together).size !== 3
  },
  'edit-overwrites-live-update': async (s) => {
    const path = await s.created({ path: [startPoint] })
    await Promise.all([
      s.edit(path, { notes: 'edited' }),
      s.send(path, { method: 'POST', type: 'LiveFitnessActivityUpdate', body: livePoint }),
    ])
    return ((await s.json(path)).path as unknown[]).length !== 2
  },
  'live-updates-lost-update': async (s) => {
    const path = await s.created({ path: [startPoint] })
    await Promise.all(
      [1, 2].map(() => s.send(path, { method: 'POST', type: 'LiveFitnessActivityUpdate', body: livePoint })),
    )
    return ((await s.json(path)).path as unknown[]).length !== 3
  },
  'repeated-get-moves-last-modified': async (s) => {
    const path = await s.created()
    const before = header(await s.send(path), 'last-modified')
    s.clock.advance(5)
    await s.send(path)
    return header(await s.send(path), 'last-modified') !== before
  },
  'edit-applies-links': async (s) => {
    const path = await ownActivity(s)
    await s.edit(path, { notes: 'x', previous: path, comments: '/comments/elsewhere' })
    const read = await s.json(path)
    return read.previous === path && read.comments === '/comments/elsewhere'
  },
  'edit-applies-provenance': async (s) => {
    const path = await ownActivity(s)
    const before = await s.json(path)
    await s.edit(path, { notes: 'x', source: 'Elsewhere', entry_mode: before.entry_mode === 'Web' ? 'API' : 'Web' })
    const read = await s.json(path)
    return read.source === 'Elsewhere' && read.entry_mode !== before.entry_mode
  },
}

/** `YYYY-MM-DD` of a feed item's displayed start time (§2.2 format, read as the wall time it shows). */
function dayOf(item: { start_time?: unknown }): string {
  return new Date(`${String(item.start_time).replace(/^\w+, /, '')} GMT`).toISOString().slice(0, 10)
}
