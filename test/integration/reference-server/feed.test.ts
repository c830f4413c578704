// The activity feed (§2.2, §4 endpoint 2, rules 1–4, §8) in the reference mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { header, json, media, send, walkFeed, type Feed, type FeedItem } from './helpers.js'

let server: RunningReferenceServer
let alice: string
let everything: Feed

beforeAll(async () => {
  server = await startReferenceServer()
  alice = server.tokens.token
  everything = json<Feed>(await send(server.url, '/fitnessActivities?pageSize=1000', { token: alice }))
})
afterAll(() => server.close())

const get = (path: string, headers: Record<string, string> = {}) => send(server.url, path, { token: alice, headers })
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `Tue, 1 Mar 2011 07:00:00` → `2011-03-01`. */
function isoDay(item: FeedItem): string {
  const [, day = '', month = '', year = ''] = /^\w+, (\d+) (\w+) (\d+)/.exec(item.start_time ?? '') ?? []
  return `${year}-${String(months.indexOf(month) + 1).padStart(2, '0')}-${day.padStart(2, '0')}`
}

describe('paging', () => {
  it('serves 25 items by default, newest first, with the total in size and an absolute previous', async () => {
    const exchange = await get('/fitnessActivities')
    expect(exchange.status).toBe(200)
    expect(header(exchange, 'content-type')).toBe(media('FitnessActivityFeed'))
    const feed = json<Feed>(exchange)
    expect(feed.items).toHaveLength(25)
    expect(feed.size).toBe(everything.size)
    expect(feed.size).toBeGreaterThan(50)
    expect(feed.items).toEqual(everything.items.slice(0, 25))
    expect(feed.previous).toBe(`${server.url}/fitnessActivities?page=1`)
    const days = everything.items.map(isoDay)
    expect(days).toEqual([...days].sort().reverse())
  })

  it('gives every item the §2.2 fields', () => {
    for (const item of everything.items) {
      expect(Object.keys(item).sort()).toEqual([
        'duration',
        'entry_mode',
        'has_map',
        'source',
        'start_time',
        'total_distance',
        'type',
        'uri',
      ])
      expect(item.uri).toMatch(/^\/fitnessActivities\/\d+$/)
      expect(['true', 'false']).toContain(item.has_map)
      expect(['API', 'Web']).toContain(item.entry_mode)
    }
  })

  it('holds pageSize items and keeps pageSize in previous (§4 rule 2)', async () => {
    const feed = json<Feed>(await get('/fitnessActivities?pageSize=4'))
    expect(feed.items).toHaveLength(4)
    expect(feed.previous).toBe(`${server.url}/fitnessActivities?page=1&pageSize=4`)
  })

  it('reaches every activity exactly once by following previous', async () => {
    const pages = await walkFeed(server.url, alice, '/fitnessActivities?pageSize=4')
    const uris = pages.flatMap((page) => page.items.map((item) => item.uri))
    expect(pages).toHaveLength(Math.ceil(everything.size / 4))
    expect(uris).toEqual(everything.items.map((item) => item.uri))
    expect(pages.at(-1)).not.toHaveProperty('previous')
  })

  it('builds previous from the Host the client used', async () => {
    const feed = json<Feed>(await get('/fitnessActivities?pageSize=4', { host: 'proxy.example:8080' }))
    expect(feed.previous).toBe('http://proxy.example:8080/fitnessActivities?page=1&pageSize=4')
  })

  it('keeps a base path in previous, so the walk stays under it', async () => {
    const mounted = await startReferenceServer({ basePath: '/api/v1/' })
    try {
      expect(mounted.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
      const first = json<Feed>(await send(mounted.url, '/fitnessActivities?pageSize=10', { token: alice }))
      expect(first.previous).toBe(`${mounted.url}/fitnessActivities?page=1&pageSize=10`)
      const pages = await walkFeed(mounted.url, alice, '/fitnessActivities?pageSize=10')
      expect(pages.flatMap((page) => page.items)).toEqual(everything.items)
      expect((await send(mounted.url.replace('/api/v1', ''), '/fitnessActivities', { token: alice })).status).toBe(404)
    } finally {
      await mounted.close()
    }
  })

  it('answers an empty page past the end', async () => {
    const feed = json<Feed>(await get('/fitnessActivities?page=99'))
    expect(feed).toEqual({ size: everything.size, items: [] })
  })

  it.each(['0', '-1', 'abc', '2.5', ''])('refuses pageSize=%s with 400 text', async (value) => {
    const exchange = await get(`/fitnessActivities?pageSize=${value}`)
    expect(exchange.status).toBe(400)
    expect(header(exchange, 'content-type')).toBe('text/plain; charset=utf-8')
  })

  it('shows each user only their own activities', async () => {
    const bob = json<Feed>(
      await send(server.url, '/fitnessActivities?pageSize=1000', { token: server.tokens.otherToken }),
    )
    expect(bob.size).toBe(12)
    const aliceUris = new Set(everything.items.map((item) => item.uri))
    expect(bob.items.some((item) => aliceUris.has(item.uri))).toBe(false)
  })
})

describe('time scopes (§4 rule 1, §2.2)', () => {
  it('includes the boundary day at both ends and answers one page without previous', async () => {
    const day = isoDay(everything.items[10] as FeedItem)
    const onDay = everything.items.filter((item) => isoDay(item) === day)
    const exact = json<Feed>(await get(`/fitnessActivities?noEarlierThan=${day}&noLaterThan=${day}`))
    expect(exact).toEqual({ size: onDay.length, items: onDay })
    const fromDay = json<Feed>(await get(`/fitnessActivities?noEarlierThan=${day}&pageSize=1000`))
    expect(fromDay.items).toEqual(everything.items.filter((item) => isoDay(item) >= day))
    const toDay = json<Feed>(await get(`/fitnessActivities?noLaterThan=${day}&pageSize=1000`))
    expect(toDay.items).toEqual(everything.items.filter((item) => isoDay(item) <= day))
    expect(toDay.size).toBe(toDay.items.length)
  })

  it('returns the newest pageSize matches when more match, with size equal to the items returned', async () => {
    const feed = json<Feed>(await get('/fitnessActivities?noEarlierThan=2026-01-01&pageSize=5'))
    expect(feed).toEqual({ size: 5, items: everything.items.slice(0, 5) })
  })

  it.each(['2026-13-01', '2026-02-30', '26-01-01', 'yesterday'])('refuses the date %s with 400', async (date) => {
    expect((await get(`/fitnessActivities?noEarlierThan=${date}`)).status).toBe(400)
    expect((await get(`/fitnessActivities?modifiedNoLaterThan=${date}`)).status).toBe(400)
  })
})

describe('conditional reads of the feed (§4 rules 3–4)', () => {
  it('answers 304 with no body when nothing changed since If-Modified-Since', async () => {
    const lastModified = header(await get('/fitnessActivities'), 'last-modified') ?? ''
    const exchange = await get('/fitnessActivities', { 'if-modified-since': lastModified })
    expect(exchange.status).toBe(304)
    expect(exchange.text).toBe('')
    const scoped = await get('/fitnessActivities?noEarlierThan=2026-03-01&pageSize=3', {
      'if-modified-since': lastModified,
    })
    expect(scoped.status).toBe(304)
  })

  it('accepts the obsolete HTTP date forms, and ignores an unparseable date', async () => {
    const lastModified = Date.parse(header(await get('/fitnessActivities'), 'last-modified') ?? '')
    const rfc850 = new Date(lastModified)
      .toUTCString()
      .replace(/^(\w+), (\d+) (\w+) \d\d(\d\d)/, (_, _d, day, month, year) => `Saturday, ${day}-${month}-${year}`)
    expect((await get('/fitnessActivities', { 'if-modified-since': rfc850 })).status).toBe(304)
    expect((await get('/fitnessActivities', { 'if-modified-since': 'not a date' })).status).toBe(200)
    expect((await get('/fitnessActivities', { 'if-modified-since': '2026-11-01' })).status).toBe(200)
  })

  it('answers 200 when the feed changed after If-Modified-Since', async () => {
    const lastModified = Date.parse(header(await get('/fitnessActivities'), 'last-modified') ?? '')
    const earlier = new Date(lastModified - 1000).toUTCString()
    expect((await get('/fitnessActivities', { 'if-modified-since': earlier })).status).toBe(200)
    expect((await get('/fitnessActivities?noLaterThan=2026-02-01', { 'if-modified-since': earlier })).status).toBe(200)
  })
})
