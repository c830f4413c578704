// The two other conforming modes: quirky (the §2.2/§7 irregularities) and other-choices (the other
// branch wherever the spec is open).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { header, json, media, send, walkFeed, type Feed, type FeedItem } from './helpers.js'

const newActivity = { type: 'Running', start_time: 'Sat, 21 Nov 2026 07:30:00' }

function everyObject(value: unknown, visit: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((item) => everyObject(item, visit))
  else if (value !== null && typeof value === 'object') {
    visit(value as Record<string, unknown>)
    Object.values(value).forEach((item) => everyObject(item, visit))
  }
}

describe('quirky mode', () => {
  let server: RunningReferenceServer
  let feed: Feed
  beforeAll(async () => {
    server = await startReferenceServer({ mode: 'quirky' })
    feed = json<Feed>(await send(server.url, '/fitnessActivities?pageSize=1000', { token: server.tokens.token }))
  })
  afterAll(() => server.close())
  const get = (path: string, token = server.tokens.token) => send(server.url, path, { token })
  const idOf = (item: FeedItem) => item.uri.split('/').pop() ?? ''

  it('reproduces each §2.2 irregularity on some items and not on others', () => {
    const count = (test: (item: FeedItem) => boolean) => feed.items.filter(test).length
    const total = feed.items.length
    for (const quirk of [
      (item: FeedItem) => 'startTime' in item,
      (item: FeedItem) => !('source' in item),
      (item: FeedItem) => !('entry_mode' in item),
      (item: FeedItem) => !('has_map' in item),
      (item: FeedItem) => item.uri.startsWith('/activities/'),
    ]) {
      expect(count(quirk)).toBeGreaterThan(0)
      expect(count(quirk)).toBeLessThan(total)
    }
    expect(count((item) => 'startTime' in item)).toBeGreaterThan(total / 5)
    for (const item of feed.items) expect('startTime' in item !== 'start_time' in item).toBe(true)
  })

  it('serves the activity only at /fitnessActivities/<id>, with opaque ids and a large integer userID', async () => {
    const item = feed.items.find((candidate) => candidate.uri.startsWith('/activities/')) as FeedItem
    expect(idOf(item)).toMatch(/^ax[0-9a-z]{20,}$/)
    expect((await get(item.uri)).status).toBe(404)
    const activity = json(await get(`/fitnessActivities/${idOf(item)}`))
    expect(activity.uri).toBe(`/fitnessActivities/${idOf(item)}`)
    expect(activity.userID).toBe(4815162342)
    expect(activity).toHaveProperty('start_time')
  })

  it('adds unknown fields to every JSON object and a charset to every media type', async () => {
    const exchange = await get(`/fitnessActivities/${idOf(feed.items[0] as FeedItem)}`)
    expect(header(exchange, 'content-type')).toBe(`${media('FitnessActivity')}; charset=utf-8`)
    let objects = 0
    everyObject(json(exchange), (object) => {
      objects++
      expect(object).toHaveProperty('x_server_build')
    })
    expect(objects).toBeGreaterThan(3)
    expect(header(await get('/user'), 'content-type')).toBe(`${media('User')}; charset=utf-8`)
  })

  it('carries delete_health as text', async () => {
    expect(json(await get('/user', server.tokens.revokedToken))).toMatchObject({
      reason: 'Revoked',
      delete_health: 'false',
    })
    expect(json(await get('/user', server.tokens.revokedDeleteToken))).toMatchObject({
      reason: 'Revoked',
      delete_health: 'true',
    })
  })

  it('shows the quirks on activities created through the API too', async () => {
    const ids: string[] = []
    for (let i = 0; i < 12; i++) {
      const created = await send(server.url, '/fitnessActivities', {
        method: 'POST',
        token: server.tokens.token,
        type: 'NewFitnessActivity',
        body: newActivity,
      })
      expect(created.status).toBe(201)
      ids.push((header(created, 'location') ?? '').replace('/fitnessActivities/', ''))
    }
    const all = json<Feed>(await get('/fitnessActivities?pageSize=1000'))
    const createdItems = all.items.filter((item) => ids.includes(idOf(item)))
    expect(createdItems).toHaveLength(12)
    expect(
      createdItems.some((item) => 'startTime' in item || !('source' in item) || item.uri.startsWith('/activities/')),
    ).toBe(true)
  })

  it('still reaches every activity once by following previous', async () => {
    const total = json<Feed>(await get('/fitnessActivities')).size
    const pages = await walkFeed(server.url, server.tokens.token, '/fitnessActivities?pageSize=7')
    const ids = pages.flatMap((page) => page.items.map(idOf))
    expect(new Set(ids).size).toBe(total)
    expect(ids).toHaveLength(total)
  })
})

describe('other-choices mode', () => {
  let server: RunningReferenceServer
  let alice: string
  let feed: Feed
  beforeAll(async () => {
    server = await startReferenceServer({ mode: 'other-choices' })
    alice = server.tokens.token
    feed = json<Feed>(await send(server.url, '/fitnessActivities?pageSize=1000', { token: alice }))
  })
  afterAll(() => server.close())
  const get = (path: string, token: string | null = alice) => send(server.url, path, { token })
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

  it('lists oldest first with UUID ids, and keeps the total in size', async () => {
    const years = feed.items.map((item) => item.start_time?.split(' ')[3])
    expect(years[0]).toBe('2025')
    expect(years.at(-1)).toBe('2026')
    for (const item of feed.items) expect(item.uri.replace('/fitnessActivities/', '')).toMatch(uuid)
    const page = json<Feed>(await get('/fitnessActivities?pageSize=4'))
    expect(page.size).toBe(feed.size)
    expect(page.items).toEqual(feed.items.slice(0, 4))
  })

  it('reorders the previous link, adds a harmless parameter, and still walks the whole feed', async () => {
    const page = json<Feed>(await get('/fitnessActivities?pageSize=4'))
    expect(page.previous).toBe(`${server.url}/fitnessActivities?pageSize=4&page=1&via=previous`)
    const pages = await walkFeed(server.url, alice, '/fitnessActivities?pageSize=4')
    expect(pages.flatMap((p) => p.items)).toEqual(feed.items)
  })

  it('returns the oldest matches of a time scope larger than pageSize', async () => {
    const in2026 = feed.items.filter((item) => item.start_time?.includes(' 2026 '))
    expect(json<Feed>(await get('/fitnessActivities?noEarlierThan=2026-01-01&pageSize=5'))).toEqual({
      size: 5,
      items: in2026.slice(0, 5),
    })
  })

  it('answers 400 without Authorization and 401 for an unknown token', async () => {
    expect((await get('/user', null)).status).toBe(400)
    expect((await get('/user', 'nope')).status).toBe(401)
  })

  it("refuses another user's activity with 403 Insufficient permission, and a deleted one with 410", async () => {
    const uri = feed.items[0]?.uri ?? ''
    const foreign = await get(uri, server.tokens.otherToken)
    expect(foreign.status).toBe(403)
    expect(header(foreign, 'content-type')).toBe(media('ErrorMessage'))
    expect(json(foreign)).toEqual({ reason: 'Insufficient permission' })
    expect((await send(server.url, uri, { method: 'DELETE', token: alice })).status).toBe(204)
    expect((await get(uri)).status).toBe(410)
    expect((await get('/fitnessActivities/00000000-0000-4000-8000-000000000000')).status).toBe(404)
  })

  it('accepts any JSON media type on writes, answers 422 to an invalid body, and edits more fields', async () => {
    const created = await send(server.url, '/fitnessActivities', {
      method: 'POST',
      token: alice,
      headers: { 'content-type': 'application/json' },
      body: newActivity,
    })
    expect(created.status).toBe(201)
    const location = header(created, 'location') ?? ''
    expect(location.replace('/fitnessActivities/', '')).toMatch(uuid)
    expect(
      (
        await send(server.url, '/fitnessActivities', {
          method: 'POST',
          token: alice,
          type: 'NewFitnessActivity',
          body: { type: 'Running' },
        })
      ).status,
    ).toBe(422)
    const edit = await send(server.url, location, {
      method: 'PUT',
      token: alice,
      type: 'FitnessActivity',
      body: { notes: 'n', type: 'Walking', equipment: 'Treadmill', total_climb: 12 },
    })
    expect(json(edit)).toMatchObject({ notes: 'n', type: 'Walking', equipment: 'Treadmill', total_climb: 12 })
    const profile = await send(server.url, '/profile', {
      method: 'PUT',
      token: alice,
      type: 'Profile',
      body: { name: 'Alice B.', location: 'Nice', gender: 'X' },
    })
    expect(json(profile)).toMatchObject({ name: 'Alice B.', location: 'Nice', gender: 'F' })
  })

  it('adds X-Request-Id, Cache-Control and ETag, sends bodies chunked, and keeps Content-Length on HEAD', async () => {
    const uri = feed.items[3]?.uri ?? ''
    const got = await get(uri)
    expect(header(got, 'x-request-id')).toMatch(uuid)
    expect(header(got, 'cache-control')).toBe('private')
    expect(header(got, 'etag')).toMatch(/^"[^"]+"$/)
    expect(header(got, 'transfer-encoding')).toBe('chunked')
    expect(header(got, 'content-length')).toBeUndefined()
    const head = await send(server.url, uri, { method: 'HEAD', token: alice })
    expect(header(head, 'content-length')).toBe(String(Buffer.byteLength(got.text)))
    expect(header(head, 'etag')).toBe(header(got, 'etag'))
  })
})

it('rejects an unknown mode', async () => {
  await expect(startReferenceServer({ mode: 'strict' as never })).rejects.toThrow(/reference, quirky, other-choices/)
})
