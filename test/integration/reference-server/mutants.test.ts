// The mutant switch: catalogue integrity and the three example mutants.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { mutants, startReferenceServer } from '../../../reference-server/index.js'
import { header, json, rawExchange, send, splitRaw, type Feed } from './helpers.js'

async function withServer(mutant: string, run: (url: string, token: string, uri: string) => Promise<void>): Promise<void> {
  const server = await startReferenceServer({ mutant })
  try {
    expect(server.mutant).toBe(mutant)
    const feed = json<Feed>(await send(server.url, '/fitnessActivities', { token: server.tokens.token }))
    await run(server.url, server.tokens.token, feed.items[0]?.uri ?? '')
  } finally {
    await server.close()
  }
}

describe('the mutant catalogue', () => {
  it('names server rules of suites/rules.yaml, one mutant name each', async () => {
    const catalogue = parse(await readFile(new URL('../../../suites/rules.yaml', import.meta.url), 'utf8')) as { rules: { id: string; appliesTo: string }[] }
    const serverRules = new Set(catalogue.rules.filter((rule) => rule.appliesTo === 'server').map((rule) => rule.id))
    expect(mutants.length).toBeGreaterThanOrEqual(3)
    for (const mutant of mutants) {
      expect(serverRules.has(mutant.rule), mutant.rule).toBe(true)
      expect(mutant.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(mutant.description.length).toBeGreaterThan(10)
    }
    expect(new Set(mutants.map((mutant) => mutant.name)).size).toBe(mutants.length)
  })

  it('refuses an unknown mutant, naming the known ones', async () => {
    await expect(startReferenceServer({ mutant: 'no-such-mutant' })).rejects.toThrow(/unknown mutant "no-such-mutant".*has-map-boolean/)
  })
})

describe('example mutants', () => {
  it('has-map-boolean sends has_map as a JSON boolean on the activity only', () =>
    withServer('has-map-boolean', async (url, token, uri) => {
      expect(typeof json(await send(url, uri, { token })).has_map).toBe('boolean')
      const feed = json<Feed>(await send(url, '/fitnessActivities', { token }))
      expect(typeof feed.items[0]?.has_map).toBe('string')
    }))

  it('head-with-body writes the GET body after the HEAD headers', () =>
    withServer('head-with-body', async (url, token, uri) => {
      const got = await send(url, uri, { token })
      const { head, rest } = splitRaw(await rawExchange(url, `HEAD ${uri} HTTP/1.1\r\nAuthorization: Bearer ${token}`))
      expect(head).toMatch(/^HTTP\/1\.1 200/)
      expect(rest.toString('utf8')).toBe(got.text)
      expect((await send(url, '/user', { token })).status).toBe(200)
    }))

  it('location-absolute answers a create with an absolute Location', () =>
    withServer('location-absolute', async (url, token) => {
      const created = await send(url, '/fitnessActivities', { method: 'POST', token, type: 'NewFitnessActivity', body: { type: 'Running', start_time: 'Sat, 21 Nov 2026 07:30:00' } })
      expect(created.status).toBe(201)
      expect(header(created, 'location')).toMatch(new RegExp(`^${url}/fitnessActivities/\\d+$`))
    }))
})
