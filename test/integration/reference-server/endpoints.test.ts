// Each endpoint of §4 against the reference mode: status, media type, body shape, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { header, json, media, rawExchange, send, splitRaw, type Feed } from './helpers.js'

let server: RunningReferenceServer
let alice: string
let firstActivity: string

beforeAll(async () => {
  server = await startReferenceServer()
  alice = server.tokens.token
  const feed = json<Feed>(await send(server.url, '/fitnessActivities', { token: alice }))
  firstActivity = feed.items[0]?.uri ?? ''
})
afterAll(() => server.close())

const get = (path: string, token: string | null = alice) => send(server.url, path, { token })

describe('GET /user (§4 endpoint 1)', () => {
  it('answers 200 User with every §2.1 field, links relative', async () => {
    const exchange = await get('/user')
    expect(exchange.status).toBe(200)
    expect(header(exchange, 'content-type')).toBe(media('User'))
    const user = json(exchange)
    expect(Number.isInteger(user.userID)).toBe(true)
    const links = [
      'profile',
      'settings',
      'fitness_activities',
      'strength_training_activities',
      'background_activities',
      'sleep',
      'nutrition',
      'weight',
      'general_measurements',
      'diabetes',
      'records',
      'team',
    ]
    for (const link of links) expect(user[link]).toMatch(/^\/[A-Za-z]+$/)
    expect(user.fitness_activities).toBe('/fitnessActivities')
  })

  it('serves HEAD wherever GET is served, and refuses other methods with 405 and Allow', async () => {
    const head = await send(server.url, '/user', { method: 'HEAD', token: alice })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    const post = await send(server.url, '/user', { method: 'POST', token: alice, body: {} })
    expect(post.status).toBe(405)
    expect(header(post, 'allow')).toBe('GET, HEAD')
    expect(header(post, 'content-type')).toBe('text/plain; charset=utf-8')
  })
})

describe('GET /fitnessActivities/<id> (§4 endpoint 3)', () => {
  it('answers 200 FitnessActivity with every §2.3 field and Last-Modified', async () => {
    const exchange = await get(firstActivity)
    expect(exchange.status).toBe(200)
    expect(header(exchange, 'content-type')).toBe(media('FitnessActivity'))
    expect(header(exchange, 'last-modified')).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    )
    const activity = json(exchange)
    expect(activity.uri).toBe(firstActivity)
    expect(Number.isInteger(activity.userID)).toBe(true)
    expect(activity.start_time).toMatch(/^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}$/)
    for (const field of ['type', 'equipment', 'source', 'entry_mode']) expect(typeof activity[field]).toBe('string')
    for (const field of ['total_distance', 'duration', 'total_climb']) expect(typeof activity[field]).toBe('number')
    for (const field of ['distance', 'heart_rate', 'calories', 'path'])
      expect(Array.isArray(activity[field])).toBe(true)
    expect(['true', 'false']).toContain(activity.has_map)
    expect(activity.comments).toBe(`${firstActivity}/comments`)
    expect(activity.previous).toMatch(/^\/fitnessActivities\/\d+$/)
    for (const set of [
      'strength_training_activities',
      'background_activities',
      'sleep',
      'nutrition',
      'weight',
      'general_measurements',
      'diabetes',
    ]) {
      expect(activity[`nearest_teammate_${set}`]).toEqual([])
    }
  })

  it("links previous to the same user's next older activity, and omits it on the oldest", async () => {
    const feed = json<Feed>(await get('/fitnessActivities?pageSize=1000'))
    const [newest, second] = feed.items
    expect(json(await get(newest?.uri ?? '')).previous).toBe(second?.uri)
    const oldest = feed.items.at(-1)?.uri ?? ''
    expect(json(await get(oldest))).not.toHaveProperty('previous')
  })

  it('gives path points the §2.3 fields', async () => {
    const feed = json<Feed>(await get('/fitnessActivities?pageSize=1000'))
    const mapped = feed.items.find((item) => item.has_map === 'true')
    const activity = json<{ path: Record<string, unknown>[] }>(await get(mapped?.uri ?? ''))
    expect(activity.path.length).toBeGreaterThan(1)
    for (const point of activity.path) {
      expect(Object.keys(point).sort()).toEqual(['altitude', 'latitude', 'longitude', 'timestamp', 'type'])
      expect(Number.isInteger(point.timestamp)).toBe(true)
    }
    expect(activity.path[0]?.type).toBe('start')
    expect(activity.path.at(-1)?.type).toBe('end')
  })

  it('answers 404 text for an unknown id', async () => {
    const exchange = await get('/fitnessActivities/999999')
    expect(exchange.status).toBe(404)
    expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
  })
})

describe('HEAD /fitnessActivities/<id> (§4 endpoint 9)', () => {
  it('sends the headers of GET, Content-Length included', async () => {
    const got = await get(firstActivity)
    const head = await send(server.url, firstActivity, { method: 'HEAD', token: alice })
    expect(head.status).toBe(200)
    expect(header(head, 'content-type')).toBe(header(got, 'content-type'))
    expect(header(head, 'last-modified')).toBe(header(got, 'last-modified'))
    expect(header(head, 'content-length')).toBe(String(Buffer.byteLength(got.text)))
  })

  it('puts no body on the wire', async () => {
    const bytes = await rawExchange(server.url, `HEAD ${firstActivity} HTTP/1.1\r\nAuthorization: Bearer ${alice}`)
    const { head, rest } = splitRaw(bytes)
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    expect(head).toMatch(/\r\nContent-Length: [1-9]\d*/i)
    expect(rest.length).toBe(0)
  })
})

describe('GET and PUT /profile (§4 endpoint 6, rule 8)', () => {
  it('edits athlete_type, ignores other fields and returns the whole profile', async () => {
    const before = json(await get('/profile'))
    const exchange = await send(server.url, '/profile', {
      method: 'PUT',
      token: alice,
      type: 'Profile',
      body: { athlete_type: 'Triathlete', name: 'Mallory', x: 1 },
    })
    expect(exchange.status).toBe(200)
    expect(header(exchange, 'content-type')).toBe(media('Profile'))
    const after = json(exchange)
    expect(after).toEqual({ ...before, athlete_type: 'Triathlete' })
    expect(Object.keys(after).sort()).toEqual([
      'athlete_type',
      'birthday',
      'elite',
      'gender',
      'large_picture',
      'location',
      'medium_picture',
      'name',
      'normal_picture',
      'profile',
      'small_picture',
    ])
    expect(typeof after.elite).toBe('boolean')
    expect(after.profile).toMatch(/^https:\/\//)
    expect(json(await get('/profile'))).toEqual(after)
  })

  it('accepts an empty edit and refuses a wrong type or media type', async () => {
    const before = json(await get('/profile'))
    const empty = await send(server.url, '/profile', { method: 'PUT', token: alice, type: 'Profile', body: {} })
    expect([empty.status, json(empty)]).toEqual([200, before])
    expect(
      (await send(server.url, '/profile', { method: 'PUT', token: alice, type: 'Profile', body: { athlete_type: 3 } }))
        .status,
    ).toBe(400)
    expect(
      (await send(server.url, '/profile', { method: 'PUT', token: alice, type: 'Profile', body: '[]' })).status,
    ).toBe(400)
    expect(
      (
        await send(server.url, '/profile', {
          method: 'PUT',
          token: alice,
          headers: { 'content-type': 'application/json' },
          body: {},
        })
      ).status,
    ).toBe(415)
  })
})

describe('authentication (§5) and the structured 403s (§7)', () => {
  it('answers 401 text with WWW-Authenticate without a token or with an unknown one', async () => {
    for (const token of [null, 'no-such-token']) {
      const exchange = await get('/user', token)
      expect(exchange.status).toBe(401)
      expect(header(exchange, 'www-authenticate')).toMatch(/^Bearer/)
      expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
    }
  })

  it.each([
    ['revokedToken', { reason: 'Revoked', delete_health: false }],
    ['revokedDeleteToken', { reason: 'Revoked', delete_health: true }],
  ] as const)('answers 403 Revoked on every endpoint to %s', async (name, expected) => {
    const token = server.tokens[name]
    const exchanges = [
      await get('/user', token),
      await send(server.url, '/profile', { method: 'PUT', token, type: 'Profile', body: {} }),
      await get('/fitnessActivities', token),
      await get(firstActivity, token),
      await send(server.url, '/fitnessActivities', { method: 'POST', token, type: 'NewFitnessActivity', body: {} }),
      await send(server.url, firstActivity, { method: 'DELETE', token }),
    ]
    for (const exchange of exchanges) {
      expect(exchange.status).toBe(403)
      expect(header(exchange, 'content-type')).toBe(media('ErrorMessage'))
      expect(json(exchange)).toEqual(expected)
    }
  })

  it('answers 403 Insufficient permission on fitness activities to the limited token, and serves /user', async () => {
    const token = server.tokens.limitedToken
    for (const exchange of [await get('/fitnessActivities', token), await get(firstActivity, token)]) {
      expect(exchange.status).toBe(403)
      expect(json(exchange)).toEqual({ reason: 'Insufficient permission' })
    }
    expect((await get('/user', token)).status).toBe(200)
    expect((await get('/profile', token)).status).toBe(200)
  })

  it("hides another user's activity as 404 whatever the method", async () => {
    const bob = server.tokens.otherToken
    for (const method of ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'] as const) {
      const exchange = await send(server.url, firstActivity, {
        method,
        token: bob,
        type: method === 'PUT' ? 'FitnessActivity' : 'LiveFitnessActivityUpdate',
        body: method === 'PUT' || method === 'POST' ? { notes: 'x', path: [] } : undefined,
      })
      expect(exchange.status, method).toBe(404)
    }
    expect((await get(firstActivity)).status).toBe(200)
  })
})

describe('other errors (§7 rule 5: human-readable text)', () => {
  it('answers 404 for unknown paths, /activities/<id> included', async () => {
    for (const path of [
      '/nope',
      '/settings',
      firstActivity.replace('/fitnessActivities/', '/activities/'),
      `${firstActivity}/comments`,
    ]) {
      const exchange = await get(path)
      expect(exchange.status, path).toBe(404)
      expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
    }
  })

  it('answers 413 to a body over 1 MiB and keeps the connection usable', async () => {
    const big = JSON.stringify({
      type: 'Running',
      start_time: 'Tue, 1 Mar 2011 07:00:00',
      notes: 'x'.repeat(1024 * 1024),
    })
    const exchange = await send(server.url, '/fitnessActivities', {
      method: 'POST',
      token: alice,
      type: 'NewFitnessActivity',
      body: big,
    })
    expect(exchange.status).toBe(413)
    expect((await get('/user')).status).toBe(200)
  })

  it.each([
    ['an empty path segment', 'GET //x/user', 404],
    ['a bare slash pair', 'GET //', 404],
    ['the asterisk form', 'OPTIONS *', 404],
    ['a malformed escape', 'GET /fitnessActivities/%E0%A4%A', 404],
    ['an encoded slash', 'GET /fitnessActivities/a%2Fb', 404],
    ['a garbled query', 'GET /fitnessActivities?pageSize=%%%', 400],
    ['a scheme-only Authorization', 'GET /user', 401, 'Authorization: Bearer'],
    [
      'a JSON null body',
      'PUT /profile',
      400,
      'Content-Type: application/vnd.com.service.Profile+json\r\nContent-Length: 4',
      'null',
    ],
    [
      'a null path',
      'POST /fitnessActivities',
      400,
      'Content-Type: application/vnd.com.service.NewFitnessActivity+json\r\nContent-Length: 65',
      '{"type":"x","start_time":"Tue, 1 Mar 2011 07:00:00","path":null} ',
    ],
  ])(
    'answers %s with %i, never 5xx',
    async (_, requestLine, status, extraHeaders = `Authorization: Bearer ${alice}`, body = '') => {
      const auth = extraHeaders.startsWith('Authorization')
        ? extraHeaders
        : `Authorization: Bearer ${alice}\r\n${extraHeaders}`
      const bytes = await rawExchange(server.url, `${requestLine} HTTP/1.1\r\n${auth}`, body)
      expect(splitRaw(bytes).head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
    },
  )
})

describe('unexpected exceptions', () => {
  it('answers 500 text, reports the error, and keeps serving', async () => {
    const errors: unknown[] = []
    let calls = 0
    // A clock that fails once: the create handler reads it to stamp the new activity.
    const now = () => {
      if (++calls === 1) throw new Error('clock exploded')
      return Date.now()
    }
    const broken = await startReferenceServer({ now, onInternalError: (error) => errors.push(error) })
    try {
      const body = { type: 'Running', start_time: 'Tue, 1 Mar 2011 07:00:00' }
      const exchange = await send(broken.url, '/fitnessActivities', {
        method: 'POST',
        token: broken.tokens.token,
        type: 'NewFitnessActivity',
        body,
      })
      expect(exchange.status).toBe(500)
      expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
      expect(exchange.text).toMatch(/clock exploded/)
      expect(errors).toHaveLength(1)
      expect((await send(broken.url, '/user', { token: broken.tokens.token })).status).toBe(200)
    } finally {
      await broken.close()
    }
  })
})
