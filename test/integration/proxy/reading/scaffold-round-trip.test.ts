// Record a client session against the reference server, scaffold scenarios from it, load them with the
// suite loader and run them with the runner against the same server: they must load and pass.
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScaffoldCommand } from '../../../../proxy/commands/scaffold-command.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { loadSuites } from '../../../../src/load/load-suites.js'
import { media, request, startTestProxy } from '../helpers.js'
import { demoTokensFor, runLoaded, targetOf } from '../../../helpers/run-fixture.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

describe('scaffold round trip', () => {
  let server: RunningReferenceServer
  let outDir: string
  const printed: string[] = []

  beforeAll(async () => {
    server = await startReferenceServer({ mode: 'quirky' })
    const proxy = await startTestProxy(server.url)
    const base = proxy.proxy.url
    const agent = new http.Agent({ keepAlive: true })
    const auth = { authorization: `Bearer ${server.tokens.token}` }
    const read = (path: string, type: string, extra: Record<string, string> = {}) =>
      request(`${base}${path}`, { agent, headers: { ...auth, accept: media(type), ...extra } })
    await read('/user', 'User')
    await read('/user', 'User')
    await read('/fitnessActivities', 'FitnessActivityFeed')
    await read('/fitnessActivities?pageSize=4', 'FitnessActivityFeed')
    await read('/fitnessActivities?noEarlierThan=2000-01-01&noLaterThan=2100-01-01', 'FitnessActivityFeed')
    const created = await request(`${base}/fitnessActivities`, {
      agent,
      method: 'POST',
      headers: { ...auth, 'content-type': media('NewFitnessActivity') },
      body: JSON.stringify({
        type: 'Running',
        equipment: 'None',
        start_time: 'Tue, 1 Mar 2011 07:00:00',
        notes: 'morning run',
        path: [
          { timestamp: 0, altitude: 0, longitude: 4.8, latitude: 45.7, type: 'start' },
          { timestamp: 60, altitude: 0, longitude: 4.81, latitude: 45.71, type: 'end' },
        ],
      }),
    })
    const location = String(created.headers.location)
    const first = await read(location, 'FitnessActivity')
    await read(location, 'FitnessActivity', { 'if-modified-since': String(first.headers['last-modified']) })
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
    await request(`${base}/user`, {
      agent,
      headers: { authorization: `Bearer ${server.tokens.revokedToken}`, accept: media('User') },
    })
    await request(`${base}/user`, { agent, headers: { accept: media('User') } })
    await read('/nowhere', 'User')
    agent.destroy()
    await proxy.stop()
    outDir = makeTempDir('fitconform-scaffold-')
    const code = await runScaffoldCommand(
      [proxy.file],
      { output: outDir },
      { out: (line) => printed.push(line), err: (line) => printed.push(line) },
    )
    expect(code).toBe(0)
  })

  afterAll(async () => {
    await server.close()
  })

  it('writes one file per flow, with review comments and no literal activity id', () => {
    const files = readdirSync(outDir).sort()
    expect(files.some((file) => file.includes('activity-flow'))).toBe(true)
    expect(files.some((file) => file.includes('feed-paging'))).toBe(true)
    expect(files.some((file) => file.includes('feed-scope'))).toBe(true)
    const flow = readFileSync(join(outDir, files.find((file) => file.includes('activity-flow')) as string), 'utf8')
    expect(flow).toContain('review before committing')
    expect(flow).toContain('${activity}')
    const yamlWithoutComments = flow
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n')
    expect(yamlWithoutComments).not.toMatch(/\/fitnessActivities\/[a-z0-9]{10,}/)
    expect(printed.join('\n')).toContain('/nowhere is no endpoint of §4')
  })

  it('collapses duplicate reads', () => {
    const user = readdirSync(outDir).filter((file) => file.includes('-user-'))
    const steps = user.map((file) => (readFileSync(join(outDir, file), 'utf8').match(/- name:/g) ?? []).length)
    expect(steps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3)
  })

  it('loads with the suite loader and runs green against the server it was recorded from', async () => {
    const loaded = await loadSuites([outDir])
    expect(loaded.diagnostics).toEqual([])
    const outcome = await runLoaded(loaded, targetOf(server.url, demoTokensFor(server.tokens), 'reference (quirky)'), {
      concurrency: 2,
    })
    expect(outcome.kind).toBe('ran')
    if (outcome.kind !== 'ran') return
    const failed = outcome.result.scenarios.filter((scenario) => scenario.status !== 'passed')
    expect(
      failed.map((scenario) => ({
        id: scenario.id,
        steps: scenario.steps
          .filter((s) => s.status !== 'passed')
          .map((s) => ({ name: s.name, failed: s.assertions.filter((a) => !a.ok) })),
      })),
    ).toEqual([])
    expect(outcome.result.summary.passed).toBeGreaterThan(4)
  })
})
