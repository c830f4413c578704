// mock answers like the server it recorded: credentials (sent or not, and which one by the recording's
// keyed hash), conditional headers, recorded order among equal matches; a miss names the nearest
// recorded request and why; one log line per request, never a token. Also --host and a port in use.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { runMockCommand } from '../../../../proxy/commands/mock-command.js'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { REDACT_KEY_ENV } from '../../../../proxy/forward/proxy-defaults.js'
import { SecretScrubber } from '../../../../proxy/recording/redaction.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { serveCommand } from '../../../../src/cli/serve-command.js'
import { media, request, startTestProxy } from '../helpers.js'
import { makeSelfSignedCertificate } from '../../../helpers/self-signed.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const KEY = 'mock-test-key'

interface StartedMock {
  base: string
  lines: string[]
  stop(): Promise<number>
}

async function startMock(
  file: string,
  options: { host?: string; port?: number; key?: string; tlsCert?: string; tlsKey?: string } = {},
): Promise<StartedMock> {
  const lines: string[] = []
  const controller = new AbortController()
  let ready: (url: string) => void = () => {}
  const url = new Promise<string>((resolve) => {
    ready = resolve
  })
  const before = process.env[REDACT_KEY_ENV]
  if (options.key === undefined) delete process.env[REDACT_KEY_ENV]
  else process.env[REDACT_KEY_ENV] = options.key
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) }
  const running = runMockCommand(
    [file],
    {
      host: options.host,
      port: options.port,
      tlsCert: options.tlsCert,
      tlsKey: options.tlsKey,
      signal: controller.signal,
      onReady: ready,
    },
    io,
  )
  const base = await Promise.race([url, running.then((code) => `exit ${code}`)])
  if (before === undefined) delete process.env[REDACT_KEY_ENV]
  else process.env[REDACT_KEY_ENV] = before
  return {
    base,
    lines,
    stop: async () => {
      controller.abort()
      return running
    },
  }
}

describe('mock matching', () => {
  let server: RunningReferenceServer
  let recording: string
  let activity: string
  let lastModified: string
  const bodies: Record<string, string> = {}
  const feedSizes: number[] = []

  beforeAll(async () => {
    server = await startReferenceServer()
    const proxy = await startTestProxy(server.url, { redactor: new SecretScrubber({ key: KEY }) })
    const base = proxy.proxy.url
    const { token, otherToken } = server.tokens
    const as = (who: string | undefined, type: string, extra: Record<string, string> = {}) => ({
      headers: { ...(who === undefined ? {} : { authorization: `Bearer ${who}` }), accept: media(type), ...extra },
    })
    bodies.alice = (await request(`${base}/user`, as(token, 'User'))).body.toString()
    bodies.none = String((await request(`${base}/user`, as(undefined, 'User'))).status)
    bodies.bob = (await request(`${base}/user`, as(otherToken, 'User'))).body.toString()
    const feed = await request(`${base}/fitnessActivities?pageSize=1`, as(token, 'FitnessActivityFeed'))
    feedSizes.push((JSON.parse(feed.body.toString()) as { size: number }).size)
    activity = (JSON.parse(feed.body.toString()) as { items: { uri: string }[] }).items[0]?.uri ?? '/missing'
    const read = await request(`${base}${activity}`, as(token, 'FitnessActivity'))
    lastModified = String(read.headers['last-modified'])
    expect(
      (await request(`${base}${activity}`, as(token, 'FitnessActivity', { 'if-modified-since': lastModified }))).status,
    ).toBe(304)
    const created = await request(`${base}/fitnessActivities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': media('NewFitnessActivity') },
      body: JSON.stringify({
        type: 'Running',
        equipment: 'None',
        start_time: 'Tue, 1 Mar 2011 07:00:00',
        notes: 'mock test',
      }),
    })
    const second = await request(`${base}/fitnessActivities?pageSize=1`, as(token, 'FitnessActivityFeed'))
    feedSizes.push((JSON.parse(second.body.toString()) as { size: number }).size)
    await request(`${base}${String(created.headers.location)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    await proxy.stop()
    recording = proxy.file
  })

  afterAll(async () => {
    await server.close()
  })

  it('tells credentials apart: none, and which recorded token by its keyed hash when given the recording key', async () => {
    const mock = await startMock(recording, { key: KEY })
    const { token, otherToken } = server.tokens
    const user = (who?: string) =>
      request(`${mock.base}/user`, {
        headers: { ...(who === undefined ? {} : { authorization: `Bearer ${who}` }), accept: media('User') },
      })
    expect((await user()).status).toBe(Number(bodies.none))
    expect((await user(token)).body.toString()).toBe(bodies.alice)
    expect((await user(otherToken)).body.toString()).toBe(bodies.bob)
    const stranger = await user('not-a-recorded-token')
    expect(stranger.status).toBe(501)
    expect(stranger.body.toString()).toMatch(
      /Nearest recorded request: #\d+ GET \/user → 200; it does not match because:\n {2}- it was sent with credential tok_\w+, this request with tok_\w+/,
    )
    await mock.stop()
  })

  it('without the key, a recording of two users answers no request with a token (never one user as another) and says so', async () => {
    const mock = await startMock(recording)
    expect(mock.lines[0]).toContain(
      "the recording holds 2 users' credentials and FITCONFORM_REDACT_KEY is not set, so a request with credentials gets 501",
    )
    for (const who of [server.tokens.token, server.tokens.otherToken, 'whatever']) {
      const some = await request(`${mock.base}/user`, {
        headers: { authorization: `Bearer ${who}`, accept: media('User') },
      })
      expect(some.status).toBe(501)
      expect(some.body.toString()).toContain(
        "the recording holds several users' credentials, and without FITCONFORM_REDACT_KEY set to the key it was recorded with the mock cannot tell whose this request carries",
      )
    }
    const none = await request(`${mock.base}/user`, { headers: { accept: media('User') } })
    expect(none.status).toBe(Number(bodies.none))
    await mock.stop()
  })

  it('answers a conditional read with the recorded conditional answer, never with an unconditional one', async () => {
    const mock = await startMock(recording, { key: KEY })
    const headers = { authorization: `Bearer ${server.tokens.token}`, accept: media('FitnessActivity') }
    expect((await request(`${mock.base}${activity}`, { headers })).status).toBe(200)
    const conditional = await request(`${mock.base}${activity}`, {
      headers: { ...headers, 'if-modified-since': lastModified },
    })
    expect(conditional.status).toBe(304)
    expect(conditional.body.length).toBe(0)
    const other = await request(`${mock.base}${activity}`, { headers: { ...headers, 'if-none-match': '"x"' } })
    expect(other.status).toBe(501)
    expect(other.body.toString()).toContain('this request with if-none-match')
    await mock.stop()
  })

  it('serves equal matches in recorded order, the last one repeating', async () => {
    const mock = await startMock(recording, { key: KEY })
    const headers = { authorization: `Bearer ${server.tokens.token}`, accept: media('FitnessActivityFeed') }
    const sizes: number[] = []
    for (let i = 0; i < 3; i += 1)
      sizes.push(
        (
          JSON.parse((await request(`${mock.base}/fitnessActivities?pageSize=1`, { headers })).body.toString()) as {
            size: number
          }
        ).size,
      )
    expect(sizes).toEqual([feedSizes[0], feedSizes[1], feedSizes[1]])
    await mock.stop()
  })

  it('logs one line per request, with the status and the recorded exchange or why none matched, and no token', async () => {
    const mock = await startMock(recording, { key: KEY })
    const before = mock.lines.length
    await request(`${mock.base}/user`, {
      headers: { authorization: `Bearer ${server.tokens.token}`, accept: media('User') },
    })
    await request(`${mock.base}/nothing?access_token=${server.tokens.token}`)
    await mock.stop()
    const lines = mock.lines.slice(before)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^GET \/user → 200 \(recorded #\d+\)$/)
    expect(lines[1]).toMatch(
      /^GET \/nothing\?access_token=redacted → 501 no match; nearest #\d+ GET \/\S* → \d+: its path is /,
    )
    expect(lines.join('\n')).not.toContain(server.tokens.token)
  })
})

describe('mock and the users of a recording', () => {
  let server: RunningReferenceServer
  let keyed: string
  let unkeyed: string
  const revoked: Record<string, string> = {}

  // The client: polls /user while the recording also holds a revoked token's 403 for /user.
  async function record(key: string | undefined): Promise<string> {
    const proxy = await startTestProxy(server.url, key === undefined ? {} : { redactor: new SecretScrubber({ key }) })
    const user = (who: string) =>
      request(`${proxy.proxy.url}/user`, { headers: { authorization: `Bearer ${who}`, accept: media('User') } })
    await user(server.tokens.token)
    revoked.status = String((await user(server.tokens.revokedToken)).status)
    await user(server.tokens.token)
    await proxy.stop()
    return proxy.file
  }

  beforeAll(async () => {
    server = await startReferenceServer()
    keyed = await record(KEY)
    unkeyed = await record(undefined)
  })

  afterAll(async () => {
    await server.close()
  })

  it("a client polling /user never flips to the revoked token's recorded 403 by call order: 200s with the key, 501s without", async () => {
    expect(revoked.status).toBe('403')
    const poll = (base: string, who: string) =>
      request(`${base}/user`, { headers: { authorization: `Bearer ${who}`, accept: media('User') } })
    const withKey = await startMock(keyed, { key: KEY })
    const statuses: number[] = []
    for (let i = 0; i < 4; i += 1) statuses.push((await poll(withKey.base, server.tokens.token)).status)
    expect((await poll(withKey.base, server.tokens.revokedToken)).status).toBe(403)
    statuses.push((await poll(withKey.base, server.tokens.token)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    await withKey.stop()
    const withoutKey = await startMock(unkeyed)
    const refused: number[] = []
    for (let i = 0; i < 4; i += 1) refused.push((await poll(withoutKey.base, server.tokens.token)).status)
    expect(refused).toEqual([501, 501, 501, 501])
    await withoutKey.stop()
  })

  it('proxy says at start how the recording will replay per user: with the key, run mock with the same key', async () => {
    const lines: string[] = []
    const controller = new AbortController()
    const before = process.env[REDACT_KEY_ENV]
    process.env[REDACT_KEY_ENV] = KEY
    try {
      const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) }
      const running = runProxyCommand(
        {
          target: new URL(server.url),
          record: join(makeTempDir('fitconform-keyed-'), 'session.ndjson'),
          signal: controller.signal,
          onReady: () => controller.abort(),
        },
        io,
      )
      expect(await running).toBe(0)
    } finally {
      if (before === undefined) delete process.env[REDACT_KEY_ENV]
      else process.env[REDACT_KEY_ENV] = before
    }
    expect(lines[1]).toBe(
      "note: tokens are recorded as hashes keyed with FITCONFORM_REDACT_KEY: run `fitconform mock` with the same FITCONFORM_REDACT_KEY to replay each user's answers to that user's token only.",
    )
  })

  it('serves HTTPS with --tls-cert and --tls-key, as proxy does', async () => {
    const certificate = makeSelfSignedCertificate()
    const mock = await startMock(keyed, { key: KEY, tlsCert: certificate.certFile, tlsKey: certificate.keyFile })
    expect(mock.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(mock.lines[0]).toContain(`listening on ${mock.base}`)
    const answer = await request(`${mock.base}/user`, {
      ca: certificate.cert,
      headers: { authorization: `Bearer ${server.tokens.token}`, accept: media('User') },
    })
    expect(answer.status).toBe(200)
    await mock.stop()
  })

  it('refuses --tls-cert without --tls-key, and an unreadable certificate, with exit 2', async () => {
    expect((await startMock(keyed, { tlsCert: 'cert.pem' })).base).toBe('exit 2')
    const missing = await startMock(keyed, { tlsCert: '/nonexistent/cert.pem', tlsKey: '/nonexistent/key.pem' })
    expect(missing.base).toBe('exit 2')
    expect(missing.lines.join('\n')).toContain('error[E_TLS_READ]: cannot read the TLS certificate or key')
  })
})

describe('where mock and serve listen', () => {
  let recording: string
  let server: RunningReferenceServer

  beforeAll(async () => {
    server = await startReferenceServer()
    const proxy = await startTestProxy(server.url)
    await request(`${proxy.proxy.url}/user`, {
      headers: { authorization: `Bearer ${server.tokens.token}`, accept: media('User') },
    })
    await proxy.stop()
    recording = proxy.file
  })

  afterAll(async () => {
    await server.close()
  })

  it('mock --host 127.0.0.2 listens there, with no network warning (127.0.0.0/8 stays on this machine)', async () => {
    const mock = await startMock(recording, { host: '127.0.0.2' })
    expect(mock.lines[0]).toContain("the recording holds one user's credential: any token is answered as that user")
    expect(mock.base).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/)
    expect(mock.lines.join('\n')).not.toContain('warning')
    expect(
      (await request(`${mock.base}/user`, { headers: { authorization: 'Bearer x', accept: media('User') } })).status,
    ).toBe(200)
    await mock.stop()
  })

  it('mock on a port in use exits 2 with "port N is in use"', async () => {
    const busy = http.createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as AddressInfo).port
    const mock = await startMock(recording, { port })
    expect(mock.base).toBe('exit 2')
    expect(mock.lines.join('\n')).toContain(`error[E_LISTEN]: port ${port} is in use`)
    expect(mock.lines.join('\n')).toContain('hint: choose another with --port, or --port 0 for any free port')
    await new Promise((resolve) => busy.close(resolve))
  })

  it('serve defaults to any free port, prints its URL, and on a port in use exits 2 with "port N is in use"', async () => {
    const text: string[] = []
    const screen = {
      out: (t: string) => text.push(t),
      err: (t: string) => text.push(t),
      colors: false,
      isTTY: false,
      width: 100,
    }
    const controller = new AbortController()
    const running = serveCommand({ port: 0, mode: 'reference', host: '127.0.0.2', signal: controller.signal }, screen)
    await expect.poll(() => text.join('')).toMatch(/listening on http:\/\/127\.0\.0\.2:\d+/)
    expect(text.join('')).not.toContain('warning')
    const url = /listening on (http:\S+)/.exec(text.join(''))?.[1] ?? ''
    expect(
      (
        await request(`${url}/user`, {
          headers: { authorization: `Bearer ${server.tokens.token}`, accept: media('User') },
        })
      ).status,
    ).toBe(200)
    const port = Number(new URL(url).port)
    const again: string[] = []
    const busyScreen = { ...screen, out: (t: string) => again.push(t), err: (t: string) => again.push(t) }
    expect(await serveCommand({ port, mode: 'reference', host: '127.0.0.2' }, busyScreen)).toBe(2)
    expect(again.join('')).toContain(`error: port ${port} is in use`)
    controller.abort()
    expect(await running).toBe(0)
  })
})
