// analyze, har, mock and the CLI wiring, on a recording made through the proxy from a reference server
// with the has-map-boolean mutant (a violation) in front of a client that also makes its own mistakes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runMockCommand } from '../../../../proxy/commands/mock-command.js'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { addProxyCommands } from '../../../../src/cli/proxy-commands.js'
import { media, request, type Received } from '../helpers.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

describe('tools on a recording', () => {
  let server: RunningReferenceServer
  let recording: string
  let dir: string
  const proxyOutput: string[] = []
  let proxyExit: number
  let recordedUser: Buffer
  let activityPath: string
  let recordedHead: Received

  beforeAll(async () => {
    server = await startReferenceServer({ mutant: 'has-map-boolean' })
    dir = makeTempDir('fitconform-tools-')
    recording = join(dir, 'session.ndjson')
    const stop = new AbortController()
    let ready: (url: string) => void = () => {}
    const url = new Promise<string>((resolve) => {
      ready = resolve
    })
    const io = { out: (line: string) => proxyOutput.push(line), err: (line: string) => proxyOutput.push(line) }
    const running = runProxyCommand(
      { target: new URL(server.url), record: recording, strict: true, signal: stop.signal, onReady: ready },
      io,
    )
    const base = await url
    const auth = { authorization: `Bearer ${server.tokens.token}` }
    recordedUser = (await request(`${base}/user`, { headers: { ...auth, accept: media('User') } })).body
    const feed = await request(`${base}/fitnessActivities?pageSize=2`, {
      headers: { ...auth, accept: media('FitnessActivityFeed') },
    })
    const items = (JSON.parse(feed.body.toString()) as { items: { uri: string }[] }).items
    activityPath = items[0]?.uri ?? '/x'
    await request(`${base}${activityPath}`, { headers: { ...auth, accept: media('FitnessActivity') } })
    recordedHead = await request(`${base}${activityPath}`, {
      method: 'HEAD',
      headers: { ...auth, accept: media('FitnessActivity') },
    })
    await request(`${base}/user`, { headers: { accept: media('User') } })
    stop.abort()
    proxyExit = await running
  })

  afterAll(async () => {
    await server.close()
  })

  it('proxy prints its URL, then a summary, and exits 1 under --strict with a violation', () => {
    expect(proxyOutput[0]).toMatch(/^fitconform proxy listening on http:\/\/127\.0\.0\.1:\d+ /)
    expect(proxyOutput.at(-1)).toMatch(/^5 exchanges, none failed upstream:/)
    expect(proxyExit).toBe(1)
  })

  it('proxy says at start, when recording without FITCONFORM_REDACT_KEY, that mock will not tell users apart and what to set', () => {
    expect(process.env['FITCONFORM_REDACT_KEY']).toBeUndefined()
    expect(proxyOutput[1]).toContain('FITCONFORM_REDACT_KEY is not set')
    expect(proxyOutput[1]).toContain('`fitconform mock` will not tell its users apart')
  })

  it('analyze groups findings by rule, with examples, and exits 1 on a violation', async () => {
    const out: string[] = []
    const code = await runAnalyzeCommand(
      [recording],
      {},
      { out: (line) => out.push(line), err: (line) => out.push(line) },
    )
    expect(code).toBe(1)
    const text = out.join('\n')
    expect(text).toContain('GET /fitnessActivities/<activity_id>')
    expect(text).toMatch(/violation\s+ACTIVITY-HAS-MAP-TEXT\s+×1/)
    expect(text).toMatch(/violation\s+AUTH-BEARER-SENT\s+×1/)
    const json: string[] = []
    await runAnalyzeCommand([recording], { json: true }, { out: (line) => json.push(line), err: () => {} })
    const summary = JSON.parse(json.join('\n')) as { exchanges: number; statuses: Record<string, number> }
    expect(summary.exchanges).toBe(5)
    expect(summary.statuses['200']).toBe(4)
  })

  it('har writes a HAR 1.2 file that validates against schemas/har', async () => {
    const output = join(dir, 'session.har')
    const program = new Command().exitOverride()
    addProxyCommands(program)
    const before = process.exitCode
    await program.parseAsync(['har', recording, '-o', output], { from: 'user' })
    expect(process.exitCode ?? 0).toBe(0)
    process.exitCode = before
    const har = JSON.parse(readFileSync(output, 'utf8')) as { log: { entries: unknown[] } }
    const ajv = new Ajv2020({ strict: true, allErrors: true })
    addFormatsModule.default(ajv)
    const validate = ajv.compile(
      JSON.parse(
        readFileSync(join(import.meta.dirname, '../../../../schemas/har/har-1.2.schema.json'), 'utf8'),
      ) as object,
    )
    expect(validate(har), JSON.stringify(validate.errors, null, 2)).toBe(true)
    expect(har.log.entries).toHaveLength(5)
    expect(
      validate({
        log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ startedDateTime: 'yesterday' }] },
      }),
    ).toBe(false)
  })

  it('mock serves the recording back and answers 501 to anything else', async () => {
    const stop = new AbortController()
    let ready: (url: string) => void = () => {}
    const url = new Promise<string>((resolve) => {
      ready = resolve
    })
    const running = runMockCommand(
      [recording],
      { signal: stop.signal, onReady: ready },
      { out: () => {}, err: () => {} },
    )
    const base = await url
    const auth = { authorization: `Bearer ${server.tokens.token}` }
    const user = await request(`${base}/user`, { headers: { ...auth, accept: media('User') } })
    expect(user.status).toBe(200)
    expect(user.body.equals(recordedUser)).toBe(true)
    expect(user.headers['content-type']).toBe(media('User'))
    const head = await request(`${base}${activityPath}`, {
      method: 'HEAD',
      headers: { ...auth, accept: media('FitnessActivity') },
    })
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(recordedHead.headers['content-length'])
    expect(head.headers['last-modified']).toBe(recordedHead.headers['last-modified'])
    const unknown = await request(`${base}/nothing`)
    expect(unknown.status).toBe(501)
    expect(unknown.body.toString()).toContain('no recorded exchange for GET /nothing')
    const wrongType = await request(`${base}/user`, { headers: { ...auth, accept: media('Profile') } })
    expect(wrongType.status).toBe(501)
    stop.abort()
    expect(await running).toBe(0)
  })
})
