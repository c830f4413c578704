/**
 * Traffic in which every exchange differs, as a client's does: reads of 40 activities with their paths
 * (§2.3, 60–600 points: 7–70 KB), conditional reads of them answered 304 or 200 (§4 rule 3), feed
 * pages of 1–25 items on page 1 or 2 (§4 rules 1–2, 25-item pages as §2.2's default), a time-scoped feed
 * read (§4 rule 1), `/user` (§2.1); each request with an `X-Request-Id` of its own. The upstream half
 * answers it; the client half is autocannon's `requests` (one request per call, cycling a fixed
 * sequence so every run sends the same mix). The polled page of the other traffic stays at its path.
 */
import type http from 'node:http'

const MEDIA = {
  activity: 'application/vnd.com.service.FitnessActivity+json',
  feed: 'application/vnd.com.service.FitnessActivityFeed+json',
  user: 'application/vnd.com.service.User+json',
} as const

const ACTIVITIES = 40
/** An HTTP date every activity was last modified at, and one before and one after it. */
const MODIFIED = 'Tue, 01 Mar 2011 08:00:00 GMT'
const BEFORE = 'Mon, 28 Feb 2011 08:00:00 GMT'
const AFTER = 'Wed, 02 Mar 2011 08:00:00 GMT'

/** Path points of activity `id` (1-based): the path grows with the id, as real runs differ in length. */
function pointsOf(id: number): number {
  return 60 + ((id * 137) % 541)
}

function activity(id: number): Record<string, unknown> {
  const points = pointsOf(id)
  const path = Array.from({ length: points }, (_, i) => ({
    timestamp: i * 5,
    altitude: 40 + ((i * 7) % 30) + 0.25,
    longitude: -73.9857 + i * 0.000137 + id * 0.001,
    latitude: 40.7484 + i * 0.000091,
    type: i === 0 ? 'start' : i === points - 1 ? 'end' : 'gps',
  }))
  const samples = (field: string, scale: number): Record<string, number>[] =>
    Array.from({ length: Math.ceil(points / 10) }, (_, i) => ({
      timestamp: i * 50,
      [field]: Math.round(i * scale * 10) / 10,
    }))
  return {
    uri: `/fitnessActivities/${id}`,
    userID: 7,
    type: 'Running',
    equipment: 'None',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 1000 + points * 12.5,
    distance: samples('distance', 62.5),
    duration: points * 5,
    heart_rate: samples('heart_rate', 1.3),
    calories: samples('calories', 4.1),
    total_climb: 12.5 + id,
    path,
    comments: `/fitnessActivities/${id}/comments`,
    source: 'RunKeeper',
    entry_mode: 'API',
    has_map: 'true',
    previous: id > 1 ? `/fitnessActivities/${id - 1}` : undefined,
    nearest_teammate_strength_training_activities: [],
    nearest_teammate_background_activities: [],
    nearest_teammate_sleep: [],
    nearest_teammate_nutrition: [],
    nearest_teammate_weight: [],
    nearest_teammate_general_measurements: [],
    nearest_teammate_diabetes: [],
  }
}

/** A feed item shows the activity's own values (§2.2), as a conforming server's do: the proxy then has no violation to print. */
function feedItem(id: number): Record<string, unknown> {
  const points = pointsOf(id)
  return {
    type: 'Running',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 1000 + points * 12.5,
    duration: points * 5,
    source: 'RunKeeper',
    entry_mode: 'API',
    has_map: 'true',
    uri: `/fitnessActivities/${id}`,
  }
}

function feedPage(origin: string, page: number, pageSize: number, scoped: boolean): Buffer {
  const first = (page - 1) * pageSize
  const ids = Array.from(
    { length: Math.max(0, Math.min(pageSize, ACTIVITIES - first)) },
    (_, i) => ACTIVITIES - first - i,
  )
  const body: Record<string, unknown> = { size: scoped ? ids.length : ACTIVITIES, items: ids.map(feedItem) }
  if (!scoped && first + pageSize < ACTIVITIES)
    body.previous = `${origin}/fitnessActivities?page=${page + 1}&pageSize=${pageSize}`
  return Buffer.from(JSON.stringify(body))
}

const USER = Buffer.from(
  JSON.stringify({
    userID: 7,
    profile: '/profile',
    settings: '/settings',
    fitness_activities: '/fitnessActivities',
    strength_training_activities: '/strengthTrainingActivities',
    background_activities: '/backgroundActivities',
    sleep: '/sleep',
    nutrition: '/nutrition',
    weight: '/weight',
    general_measurements: '/generalMeasurements',
    diabetes: '/diabetes',
    records: '/records',
    team: '/team',
  }),
)

/**
 * The upstream's answers to the realistic mix; undefined for a path it does not serve (the caller's
 * own, such as the polled page). Bodies are built once per distinct answer and kept.
 */
export function createRealisticUpstream(
  origin: string,
): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const answer = createAnswers(origin)
  return (req, res) => {
    const found = answer(req.url ?? '/', req.headers['if-modified-since'])
    if (found === undefined) return false
    if (found.body === undefined) res.writeHead(found.status, { 'last-modified': MODIFIED }).end()
    else
      res
        .writeHead(found.status, {
          'content-type': found.type,
          'content-length': found.body.length,
          'last-modified': MODIFIED,
        })
        .end(found.body)
    return true
  }
}

/** Mean response body bytes over one cycle of the mix (a 304 counts as 0). */
export function meanBodyBytes(): number {
  const answer = createAnswers('http://127.0.0.1')
  const mix = realisticMix()
  const total = mix.reduce(
    (sum, each) => sum + (answer(each.path, each.headers['if-modified-since'])?.body?.length ?? 0),
    0,
  )
  return Math.round(total / mix.length)
}

export interface Answer {
  readonly status: number
  readonly type?: string
  readonly body?: Buffer
}

/** The answer to a request-target of the mix (and its `If-Modified-Since`), or undefined when it is not the mix's. */
export function createAnswers(
  origin: string,
): (target: string, ifModifiedSince: string | undefined) => Answer | undefined {
  const activities = new Map<number, Buffer>()
  const pages = new Map<string, Buffer>()
  return (target, since) => {
    const url = new URL(target, origin)
    if (url.pathname === '/user') return { status: 200, type: MEDIA.user, body: USER }
    const match = /^\/fitnessActivities\/(\d+)$/.exec(url.pathname)
    if (match !== null) {
      const id = Number(match[1])
      if (id < 1 || id > ACTIVITIES) return undefined
      if (since !== undefined && Date.parse(since) >= Date.parse(MODIFIED)) return { status: 304 }
      let body = activities.get(id)
      if (body === undefined) activities.set(id, (body = Buffer.from(JSON.stringify(activity(id)))))
      return { status: 200, type: MEDIA.activity, body }
    }
    if (url.pathname === '/fitnessActivities' && url.search !== '') {
      let body = pages.get(url.search)
      if (body === undefined) {
        const scoped = url.searchParams.has('noEarlierThan')
        body = feedPage(
          origin,
          Number(url.searchParams.get('page') ?? 1),
          Number(url.searchParams.get('pageSize') ?? 25),
          scoped,
        )
        pages.set(url.search, body)
      }
      return { status: 200, type: MEDIA.feed, body }
    }
    return undefined
  }
}

/** One request of the mix: its path and headers (without the request id). */
export interface MixRequest {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The mix's fixed sequence: per cycle 40 activity reads (one in four conditional: half answered 304,
 * half 200), 25 page sizes on page 1 and 8 on page 2, 25-item default pages, one scoped read, `/user`.
 */
export function realisticMix(): MixRequest[] {
  const mix: MixRequest[] = []
  for (let id = 1; id <= ACTIVITIES; id += 1) {
    const conditional: Record<string, string> =
      id % 4 === 0 ? { 'if-modified-since': id % 8 === 0 ? AFTER : BEFORE } : {}
    mix.push({ path: `/fitnessActivities/${id}`, headers: { accept: MEDIA.activity, ...conditional } })
    if (id <= 25) mix.push({ path: `/fitnessActivities?pageSize=${id}`, headers: { accept: MEDIA.feed } })
    if (id <= 8) mix.push({ path: `/fitnessActivities?page=2&pageSize=${id * 3}`, headers: { accept: MEDIA.feed } })
    if (id % 10 === 0) mix.push({ path: '/fitnessActivities?page=1&pageSize=25', headers: { accept: MEDIA.feed } })
  }
  mix.push({
    path: '/fitnessActivities?noEarlierThan=2011-03-01&noLaterThan=2011-03-31',
    headers: { accept: MEDIA.feed },
  })
  mix.push({ path: '/user', headers: { accept: MEDIA.user } })
  return mix
}

/**
 * autocannon's `requests` for the mix: each call takes the next request of the sequence (shared by all
 * connections) and gives it a request id of its own, as real clients do.
 */
export function realisticRequests(
  authorization: string,
): { setupRequest: (request: Record<string, unknown>) => Record<string, unknown> }[] {
  const mix = realisticMix()
  let next = 0
  return [
    {
      setupRequest: (request) => {
        const chosen = mix[next % mix.length] as MixRequest
        next += 1
        return {
          ...request,
          method: 'GET',
          path: chosen.path,
          headers: {
            ...(request.headers as Record<string, string> | undefined),
            authorization,
            ...chosen.headers,
            'x-request-id': `req-${next.toString(36)}-${process.pid}`,
          },
        }
      },
    },
  ]
}
