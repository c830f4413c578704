// Issue 7 item 5, the proxy's side: distinctive secrets go through `fitconform proxy` in every place a
// client or a server puts them (Authorization, a cookie, an access_token query parameter, a token
// issued in a response body, the server echoing them in headers and in JSON, gzip and binary bodies,
// a failed exchange), then through analyze (text and --json), har and scaffold. Every file written
// (the recording and its rotated parts, the .har, the scenarios) and every line printed is searched
// for each secret: raw, URL-encoded, and inside base64 bodies. recording.test.ts checks the same of
// the reference server's own tokens; this covers the places it cannot reach.
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordingFiles } from '../../../../proxy/recording/exchange-log.js'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runHarCommand } from '../../../../proxy/commands/har-command.js'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { runScaffoldCommand } from '../../../../proxy/commands/scaffold-command.js'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { media, request } from '../helpers.js'

const SECRETS = {
  bearer: 'sEcReT-bearer-7f3a9c2e1d5b',
  cookie: 'sEcReT-cookie-4b8d2f6a0c9e',
  query: 'sEcReT/query+9e1c7a5b3f2d', // '/' and '+' travel URL-encoded
  issued: 'sEcReT-issued-2d4f6b8a0e1c', // handed out in a token response, then used as a bearer
} as const

/** Every form in which a secret could leak into text. */
const FORMS = Object.values(SECRETS).flatMap((secret) => [
  ...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]),
])

/** Forms found in a text, for a readable failure. */
const leaks = (text: string): string[] => FORMS.filter((form) => text.includes(form))

/** An upstream that echoes whatever secrets it is sent, in headers and bodies. */
function echoingUpstream(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const echo = {
        authorization: req.headers.authorization ?? '',
        cookie: req.headers.cookie ?? '',
        query: url.searchParams.get('access_token') ?? '',
        sent: Buffer.concat(chunks).toString(),
      }
      const json = (status: number, type: string, body: unknown, extra: http.OutgoingHttpHeaders = {}): void => {
        const text = JSON.stringify(body)
        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...extra }).end(text)
      }
      const echoHeaders = {
        'x-echo-authorization': echo.authorization,
        'x-echo-cookie': echo.cookie,
        'set-cookie': `session=${SECRETS.cookie}; Path=/; HttpOnly`,
      }
      if (url.pathname === '/oauth/token')
        return json(200, 'application/json', { access_token: SECRETS.issued, token_type: 'bearer' })
      if (url.pathname === '/user')
        return json(200, media('User'), { userID: 7, fitness_activities: '/fitnessActivities', echo }, echoHeaders)
      if (url.pathname === '/fitnessActivities' && req.method === 'POST') {
        res.writeHead(201, { location: '/fitnessActivities/42', 'x-echo-authorization': echo.authorization }).end()
        return
      }
      if (url.pathname === '/fitnessActivities/42' && req.method === 'GET') {
        return json(
          200,
          media('FitnessActivity'),
          {
            uri: '/fitnessActivities/42',
            type: 'Running',
            start_time: 'Tue, 1 Mar 2011 07:00:00',
            notes: `echo: ${echo.authorization} ${echo.query}`,
          },
          { 'last-modified': 'Tue, 01 Mar 2011 08:00:00 GMT' },
        )
      }
      if (url.pathname === '/fitnessActivities/42' && req.method === 'DELETE') {
        res.writeHead(204).end()
        return
      }
      if (url.pathname === '/gzip') {
        const body = gzipSync(JSON.stringify({ echo }))
        res
          .writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': 'gzip',
            'content-length': body.length,
          })
          .end(body)
        return
      }
      if (url.pathname === '/binary') {
        const body = Buffer.concat([
          Buffer.from([0, 1, 2, 0xff]),
          Buffer.from(`${echo.authorization}|${echo.cookie}|${echo.query}`),
          Buffer.from([0]),
        ])
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body)
        return
      }
      if (url.pathname === '/reset') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 100 })
        res.write(`partial ${echo.query}`)
        setTimeout(() => res.socket?.destroy(), 10)
        return
      }
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`nothing at ${url.pathname}, you sent ${echo.authorization}`)
    })
  })
}

describe('secrets never leave the proxy', () => {
  let upstream: http.Server
  let dir: string
  const printed: string[] = []
  const io = { out: (line: string) => printed.push(line), err: (line: string) => printed.push(line) }

  beforeAll(async () => {
    upstream = echoingUpstream()
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    dir = mkdtempSync(join(tmpdir(), 'fitconform-secrets-'))
    const recording = join(dir, 'session.ndjson')
    const stop = new AbortController()
    let ready: (url: string) => void = () => {}
    const listening = new Promise<string>((resolve) => {
      ready = resolve
    })
    const target = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
    // A small --max-bytes: the recording rotates, so the rotated parts are searched too.
    const running = runProxyCommand(
      { target, record: recording, maxBytes: 3000, signal: stop.signal, onReady: ready },
      io,
    )
    const base = await listening
    const auth = { authorization: `Bearer ${SECRETS.bearer}`, cookie: `session=${SECRETS.cookie}; theme=dark-mode` }
    const query = `access_token=${encodeURIComponent(SECRETS.query)}`
    await request(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    await request(`${base}/user?${query}`, { headers: { ...auth, accept: media('User') } })
    await request(`${base}/user`, { headers: { authorization: `Bearer ${SECRETS.issued}`, accept: media('User') } })
    const notes = `my token is ${SECRETS.bearer}, my cookie ${SECRETS.cookie}, my key ${SECRETS.query}`
    await request(`${base}/fitnessActivities`, {
      method: 'POST',
      headers: { ...auth, 'content-type': media('NewFitnessActivity') },
      body: JSON.stringify({ type: 'Running', start_time: 'Tue, 1 Mar 2011 07:00:00', notes }),
    })
    await request(`${base}/fitnessActivities/42?${query}`, { headers: { ...auth, accept: media('FitnessActivity') } })
    await request(`${base}/gzip?${query}`, { headers: { ...auth, 'accept-encoding': 'gzip' } })
    await request(`${base}/binary?${query}`, { headers: auth })
    await request(`${base}/teams?${query}`, { headers: auth })
    await request(`${base}/reset?${query}`, { headers: auth }).catch(() => undefined)
    await request(`${base}/fitnessActivities/42`, { method: 'DELETE', headers: auth })
    stop.abort()
    expect(await running).toBe(0)

    const parts = recordingFiles(recording)
    expect(parts.length).toBeGreaterThan(2)
    expect(await runAnalyzeCommand(parts, {}, io)).toBeLessThan(2)
    expect(await runAnalyzeCommand(parts, { json: true }, io)).toBeLessThan(2)
    expect(await runHarCommand(parts, { output: join(dir, 'session.har') }, io)).toBe(0)
    expect(await runScaffoldCommand(parts, { output: join(dir, 'scaffolded') }, io)).toBe(0)
  }, 30_000)

  afterAll(async () => {
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('writes no secret to any file: recording parts, HAR, scenarios', () => {
    const files = walk(dir)
    expect(files.some((file) => file.endsWith('.har'))).toBe(true)
    expect(files.some((file) => file.endsWith('.yaml'))).toBe(true)
    const found = files.flatMap((file) => leaks(readFileSync(file, 'latin1')).map((form) => `${file}: ${form}`))
    expect(found).toEqual([])
  })

  it('writes no secret inside a base64 body either', () => {
    const entries = walk(dir)
      .filter((file) => /\.ndjson(\.\d+)?$/.test(file))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as ExchangeEntry),
      )
    const encoded = entries.flatMap((entry) => [
      ...(entry.response.content.encoding === 'base64' ? [entry.response.content.text ?? ''] : []),
      ...(entry.request.postData?._encoding === 'base64' ? [entry.request.postData.text] : []),
    ])
    expect(encoded.length).toBeGreaterThan(0)
    for (const text of encoded) expect(leaks(Buffer.from(text, 'base64').toString('latin1'))).toEqual([])
  })

  it('prints no secret: live lines, summary, analyze (text and --json), har and scaffold', () => {
    expect(printed.some((line) => line.includes('/reset'))).toBe(true)
    expect(printed.some((line) => line.includes('"schemaVersion"'))).toBe(true)
    expect(leaks(printed.join('\n'))).toEqual([])
  })

  it('still says where the secrets were: redaction marks, one id per secret', () => {
    const text = walk(dir)
      .filter((file) => /\.ndjson(\.\d+)?$/.test(file))
      .map((file) => readFileSync(file, 'utf8'))
      .join('')
    expect(text).toContain('Bearer [redacted tok_')
    expect(text).toContain('session=[redacted ck_')
    expect(text).toMatch(/access_token=\[redacted tok_[0-9a-f]{12}\]/)
  })
})

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}
