// A scripted client talks to the quirky reference server through the proxy; the recording must
// parse, hold no token, and carry the §2.2 irregularities and the client's own mistakes.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { media, request, startTestProxy, type TestProxy } from '../helpers.js'

describe('recording the quirky reference server', () => {
  let server: RunningReferenceServer
  let proxy: TestProxy
  let entries: ExchangeEntry[]
  let recordingText: string

  beforeAll(async () => {
    server = await startReferenceServer({ mode: 'quirky' })
    proxy = await startTestProxy(server.url)
    const agent = new http.Agent({ keepAlive: true })
    const base = proxy.proxy.url
    const auth = { authorization: `Bearer ${server.tokens.token}` }
    const read = (path: string, type: string, extra: Record<string, string> = {}) =>
      request(`${base}${path}`, { agent, headers: { ...auth, accept: media(type), ...extra } })

    await read('/user', 'User')
    const feed = await read('/fitnessActivities?pageSize=25', 'FitnessActivityFeed')
    const created = await request(`${base}/fitnessActivities`, {
      agent,
      method: 'POST',
      headers: { ...auth, 'content-type': media('NewFitnessActivity') },
      body: JSON.stringify({
        type: 'Running',
        start_time: 'Tue, 1 Mar 2011 07:00:00',
        notes: `my token is ${server.tokens.token}`,
        path: [
          { timestamp: 0, altitude: 0, longitude: 4.8, latitude: 45.7, type: 'start' },
          { timestamp: 60, altitude: 0, longitude: 4.81, latitude: 45.71, type: 'end' },
        ],
      }),
    })
    const location = String(created.headers.location)
    const activity = await read(location, 'FitnessActivity')
    await read(location, 'FitnessActivity', { 'if-modified-since': String(activity.headers['last-modified']) })
    await request(`${base}${location}`, {
      agent,
      method: 'HEAD',
      headers: { ...auth, accept: media('FitnessActivity') },
    })
    await request(`${base}${location}`, {
      agent,
      method: 'PUT',
      headers: { ...auth, 'content-type': media('FitnessActivity') },
      body: JSON.stringify({ notes: 'edited' }),
    })
    await request(`${base}${location}`, { agent, method: 'DELETE', headers: auth })
    // The client's own mistakes: no token, a wrong Accept, an unknown endpoint.
    await request(`${base}/user`, { agent, headers: { accept: media('User') } })
    await read('/user', 'User', { accept: 'application/json' })
    await read('/teams', 'User')
    agent.destroy()
    expect(feed.status).toBe(200)
    entries = await proxy.stop()
    recordingText = readFileSync(proxy.file, 'utf8')
  })

  afterAll(async () => {
    await server.close()
  })

  it('writes one parseable HAR entry per exchange', () => {
    expect(entries).toHaveLength(11)
    for (const entry of entries) {
      expect(entry.request.url.startsWith(server.url)).toBe(true)
      expect(typeof entry.startedDateTime).toBe('string')
      expect(entry.timings.wait).toBeGreaterThanOrEqual(0)
    }
  })

  it('never writes a token, not even one quoted in a body', () => {
    for (const token of Object.values(server.tokens)) expect(recordingText).not.toContain(token)
    const withAuth = entries.filter((entry) => entry.request.headers.some((h) => h.name === 'authorization'))
    expect(withAuth.length).toBe(10)
    const ids = new Set(withAuth.map((entry) => entry._tokenId))
    expect(ids.size).toBe(1)
    const post = entries.find((entry) => entry.request.method === 'POST')
    expect(post?.request.postData?.text).toContain('[redacted tok_')
  })

  it('carries the irregularities of §2.2 as irregularities', () => {
    const feed = entries.find((entry) => entry._endpoint?.row === 2)
    const rules = new Set(feed?._findings.filter((f) => f.kind === 'irregularity').map((f) => f.rule))
    expect([...rules].some((rule) => rule?.startsWith('IRREG-'))).toBe(true)
  })

  it('flags the client mistakes', () => {
    const all = entries.flatMap((entry) => entry._findings)
    expect(all.some((f) => f.kind === 'violation' && f.rule === 'AUTH-BEARER-SENT')).toBe(true)
    expect(all.some((f) => f.kind === 'violation' && f.rule === 'MEDIA-TYPE-ACCEPT')).toBe(true)
    expect(all.some((f) => f.kind === 'unknown-endpoint')).toBe(true)
  })

  it('prints the findings live without a token', () => {
    expect(proxy.printed.some((line) => line.includes('IRREG-'))).toBe(true)
    for (const token of Object.values(server.tokens)) expect(proxy.printed.join('\n')).not.toContain(token)
  })
})
