// Create → read → live update → edit → delete (§4 endpoints 3–5, 7–8, rules 5–7), with a test
// clock driving Last-Modified and If-Modified-Since (§2.3, §4 rule 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { createTestClock, header, json, media, send, type Feed } from './helpers.js'

const clock = createTestClock(Date.UTC(2026, 10, 22, 12, 0, 0))
let server: RunningReferenceServer
let alice: string

beforeAll(async () => {
  server = await startReferenceServer({ now: clock.now })
  alice = server.tokens.token
})
afterAll(() => server.close())

const newActivity = {
  type: 'Running',
  equipment: 'None',
  start_time: 'Sat, 21 Nov 2026 07:30:00',
  notes: 'first try',
  path: [
    { timestamp: 0, latitude: 45.764, longitude: 4.8357, altitude: 170, type: 'start' },
    { timestamp: 600, latitude: 45.774, longitude: 4.8357, altitude: 180, type: 'end' },
  ],
  post_to_network_a: false,
  post_to_network_b: true,
}

const get = (path: string, headers: Record<string, string> = {}) => send(server.url, path, { token: alice, headers })
const create = (body: unknown, type = 'NewFitnessActivity') =>
  send(server.url, '/fitnessActivities', { method: 'POST', token: alice, type, body })
const feedSize = async () => json<Feed>(await get('/fitnessActivities')).size

describe('activity lifecycle', () => {
  it('creates, reads, updates, edits and deletes an activity', async () => {
    const sizeBefore = await feedSize()
    const created = await create(newActivity)
    expect(created.status).toBe(201)
    expect(created.text).toBe('')
    const location = header(created, 'location') ?? ''
    expect(location).toMatch(/^\/fitnessActivities\/\d+$/)

    const read = json(await get(location))
    expect(read).toMatchObject({
      uri: location,
      type: 'Running',
      equipment: 'None',
      start_time: 'Sat, 21 Nov 2026 07:30:00',
      notes: 'first try',
      entry_mode: 'API',
      has_map: 'true',
      duration: 600,
      path: newActivity.path,
    })
    expect(read.total_distance).toBeCloseTo(1112, -1)
    expect(read.total_climb).toBe(10)
    expect(read.previous).toMatch(/^\/fitnessActivities\/\d+$/)
    const feed = json<Feed>(await get('/fitnessActivities'))
    expect(feed.size).toBe(sizeBefore + 1)
    expect(feed.items[0]?.uri).toBe(location)

    clock.advance(60)
    const point = { timestamp: 900, latitude: 45.78, longitude: 4.84, altitude: 175, type: 'gps' }
    const update = await send(server.url, location, {
      method: 'POST',
      token: alice,
      type: 'LiveFitnessActivityUpdate',
      body: { path: [point] },
    })
    expect([update.status, update.text]).toEqual([204, ''])
    const updated = json(await get(location))
    expect(updated.path).toEqual([...newActivity.path, point])
    expect(updated.duration).toBe(900)

    clock.advance(60)
    const edit = await send(server.url, location, {
      method: 'PUT',
      token: alice,
      type: 'FitnessActivity',
      body: { notes: 'edited', type: 'Walking', uri: '/elsewhere', userID: 1, unknown: true },
    })
    expect(edit.status).toBe(200)
    expect(header(edit, 'content-type')).toBe(media('FitnessActivity'))
    expect(header(edit, 'last-modified')).toBe(new Date(clock.now()).toUTCString())
    expect(json(edit)).toEqual({ ...updated, notes: 'edited' })

    const deleted = await send(server.url, location, { method: 'DELETE', token: alice })
    expect([deleted.status, deleted.text]).toEqual([204, ''])
    for (const method of ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'] as const) {
      const body = method === 'PUT' ? { notes: 'x' } : method === 'POST' ? { path: [] } : undefined
      const type = method === 'PUT' ? 'FitnessActivity' : method === 'POST' ? 'LiveFitnessActivityUpdate' : undefined
      expect(
        (await send(server.url, location, { method, token: alice, body, ...(type ? { type } : {}) })).status,
        method,
      ).toBe(404)
    }
    expect(await feedSize()).toBe(sizeBefore)
  })

  it('applies nothing and keeps Last-Modified when the edit holds only non-editable fields', async () => {
    const location = header(await create(newActivity), 'location') ?? ''
    const before = await get(location)
    clock.advance(30)
    const edit = await send(server.url, location, {
      method: 'PUT',
      token: alice,
      type: 'FitnessActivity',
      body: { type: 'Cycling', total_distance: 5 },
    })
    expect(json(edit)).toEqual(json(before))
    expect(header(edit, 'last-modified')).toBe(header(before, 'last-modified'))
  })

  it('creates an activity without a route with has_map "false" and zero totals', async () => {
    const location =
      header(await create({ type: 'Yoga', start_time: 'Friday, 20 November 2026 18:00:00' }), 'location') ?? ''
    const read = json(await get(location))
    expect(read).toMatchObject({
      type: 'Yoga',
      start_time: 'Fri, 20 Nov 2026 18:00:00',
      has_map: 'false',
      total_distance: 0,
      duration: 0,
      path: [],
    })
    expect(read).not.toHaveProperty('notes')
  })

  it.each([
    ['not JSON', '{"type":'],
    ['an array', '[]'],
    ['no type', { start_time: 'Sat, 21 Nov 2026 07:30:00' }],
    ['an empty type', { type: '', start_time: 'Sat, 21 Nov 2026 07:30:00' }],
    ['no start_time', { type: 'Running' }],
    ['a start_time in another format', { type: 'Running', start_time: '2026-11-21T07:30:00Z' }],
    ['a weekday that does not match', { type: 'Running', start_time: 'Mon, 21 Nov 2026 07:30:00' }],
    ['notes that are not text', { ...newActivity, notes: 5 }],
    [
      'a path point without latitude',
      { ...newActivity, path: [{ timestamp: 0, longitude: 1, altitude: 1, type: 'start' }] },
    ],
    ['a post_to_ flag that is not boolean', { ...newActivity, post_to_network_a: 'yes' }],
  ])('refuses a create with %s (400 text) and records nothing', async (_, body) => {
    const sizeBefore = await feedSize()
    const exchange = await create(body)
    expect(exchange.status).toBe(400)
    expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
    expect(exchange.text.length).toBeGreaterThan(10)
    expect(await feedSize()).toBe(sizeBefore)
  })

  it('answers 415 to a create with another media type, and compares media types case-insensitively', async () => {
    expect(
      (
        await send(server.url, '/fitnessActivities', {
          method: 'POST',
          token: alice,
          headers: { 'content-type': 'application/json' },
          body: newActivity,
        })
      ).status,
    ).toBe(415)
    const mixedCase = 'Application/VND.com.service.NewFitnessActivity+JSON; charset=UTF-8'
    expect(
      (
        await send(server.url, '/fitnessActivities', {
          method: 'POST',
          token: alice,
          headers: { 'content-type': mixedCase },
          body: newActivity,
        })
      ).status,
    ).toBe(201)
  })

  it('refuses a bad edit or live update with 400', async () => {
    const location = header(await create(newActivity), 'location') ?? ''
    expect(
      (
        await send(server.url, location, {
          method: 'PUT',
          token: alice,
          type: 'FitnessActivity',
          body: { notes: null },
        })
      ).status,
    ).toBe(400)
    expect(
      (await send(server.url, location, { method: 'PUT', token: alice, type: 'FitnessActivity', body: '"notes"' }))
        .status,
    ).toBe(400)
    expect(
      (
        await send(server.url, location, {
          method: 'POST',
          token: alice,
          type: 'LiveFitnessActivityUpdate',
          body: { points: [] },
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await send(server.url, location, {
          method: 'POST',
          token: alice,
          type: 'LiveFitnessActivityUpdate',
          body: { path: [{ timestamp: 'soon' }] },
        })
      ).status,
    ).toBe(400)
  })
})

describe('Last-Modified and If-Modified-Since on an activity (§4 rule 3)', () => {
  it('answers 304 until the activity changes, then 200 with a later Last-Modified', async () => {
    const location = header(await create(newActivity), 'location') ?? ''
    const first = header(await get(location), 'last-modified') ?? ''
    const unchanged = await get(location, { 'if-modified-since': first })
    expect([unchanged.status, unchanged.text]).toEqual([304, ''])
    expect(
      (await send(server.url, location, { method: 'HEAD', token: alice, headers: { 'if-modified-since': first } }))
        .status,
    ).toBe(304)

    clock.advance(5)
    await send(server.url, location, {
      method: 'PUT',
      token: alice,
      type: 'FitnessActivity',
      body: { notes: 'changed' },
    })
    const changed = await get(location, { 'if-modified-since': first })
    expect(changed.status).toBe(200)
    expect(Date.parse(header(changed, 'last-modified') ?? '')).toBeGreaterThan(Date.parse(first))
  })

  it('never sends a Last-Modified later than its Date, even after a burst of changes in one second', async () => {
    const location = header(await create(newActivity), 'location') ?? ''
    for (const notes of ['one', 'two', 'three'])
      await send(server.url, location, { method: 'PUT', token: alice, type: 'FitnessActivity', body: { notes } })
    for (const read of [await get(location), await get('/fitnessActivities')]) {
      expect(Date.parse(header(read, 'last-modified') ?? '')).toBeLessThanOrEqual(
        Date.parse(header(read, 'date') ?? ''),
      )
    }
  })

  it('answers 304 to an If-Modified-Since later than Last-Modified: the Date of a read taken after the change', async () => {
    const location = header(await create(newActivity), 'location') ?? ''
    clock.advance(2)
    const later = header(await get(location), 'date') ?? ''
    expect(Date.parse(later)).toBeGreaterThan(Date.parse(header(await get(location), 'last-modified') ?? ''))
    expect((await get(location, { 'if-modified-since': later })).status).toBe(304)
    expect((await get('/fitnessActivities', { 'if-modified-since': later })).status).toBe(304)
  })

  it("moves the feed's change time on create and delete", async () => {
    const before = header(await get('/fitnessActivities'), 'last-modified') ?? ''
    clock.advance(2)
    const location = header(await create(newActivity), 'location') ?? ''
    const afterCreate = header(await get('/fitnessActivities'), 'last-modified') ?? ''
    expect((await get('/fitnessActivities', { 'if-modified-since': before })).status).toBe(200)
    expect((await get('/fitnessActivities', { 'if-modified-since': afterCreate })).status).toBe(304)
    clock.advance(2)
    await send(server.url, location, { method: 'DELETE', token: alice })
    expect((await get('/fitnessActivities', { 'if-modified-since': afterCreate })).status).toBe(200)
  })
})

describe('modification-time scopes (§4 rule 1)', () => {
  it('selects by the UTC day of the last modification, both ends included', async () => {
    const freshClock = createTestClock(Date.UTC(2026, 10, 22, 23, 59, 0))
    const fresh = await startReferenceServer({ now: freshClock.now })
    try {
      const token = fresh.tokens.token
      const all = json<Feed>(await send(fresh.url, '/fitnessActivities?pageSize=1000', { token }))
      const location = header(
        await send(fresh.url, '/fitnessActivities', {
          method: 'POST',
          token,
          type: 'NewFitnessActivity',
          body: newActivity,
        }),
        'location',
      )
      const today = json<Feed>(await send(fresh.url, '/fitnessActivities?modifiedNoEarlierThan=2026-11-22', { token }))
      expect(today.items.map((item) => item.uri)).toEqual([location])
      const upToToday = json<Feed>(
        await send(fresh.url, '/fitnessActivities?modifiedNoLaterThan=2026-11-22&pageSize=1000', { token }),
      )
      expect(upToToday.size).toBe(all.size + 1)
      const beforeToday = json<Feed>(
        await send(fresh.url, '/fitnessActivities?modifiedNoLaterThan=2026-11-21&pageSize=1000', { token }),
      )
      expect(beforeToday).toEqual({ size: all.size, items: all.items })
    } finally {
      await fresh.close()
    }
  })
})
