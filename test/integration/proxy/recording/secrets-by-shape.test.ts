// Secrets the proxy must learn early and find by shape: a token handed out in a response body under a
// camelCase, PascalCase, kebab-case or nested name (then used as a Bearer token), a token in a
// redirect's URL fragment, a JSON Web Token under an ordinary name, the password half of Basic
// credentials typed again in a later body, and a token an HTML error page echoes with `/` as `&#x2F;`
// or a URL echoes percent-encoded twice. Every byte written (the recording) and every line printed is
// searched for each secret in each of those forms; the exchange that delivered a token is checked on
// its own, since it is written before the token is first used.
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { media, request } from '../helpers.js'

const ISSUED = {
  camel: 'sEcReT-camel-5c1e9a7b3d2f',
  pascal: 'sEcReT-pascal-8a2c4e6b0d1f',
  kebab: 'sEcReT-kebab-3f5d7b9a1c2e',
  nested: 'sEcReT-nested-6e8a0c2d4f1b',
} as const
const FRAGMENT = 'sEcReT-fragment-1a3c5e7b9d0f'
const JWT = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"runner-7","iat":1700000000}').toString('base64url')}.c2VjcmV0LXNpZ25hdHVyZS1ieXRlcw`
const PASSWORD = 'sEcReT-password-9b7d5f3a1c'
const SLASHED = 'sEcReT/slashed/4d6f8b0a2c' // echoed by an HTML page as `&#x2F;`, and percent-encoded twice

/** Every form in which a secret could leak into text, the new encodings included. */
function formsOf(secret: string): string[] {
  const percent = encodeURIComponent(secret)
  const html = secret.replace(/\//g, '&#x2F;')
  return [
    ...new Set([
      secret,
      percent,
      encodeURIComponent(percent),
      JSON.stringify(secret).slice(1, -1),
      html,
      secret.replace(/\//g, '&#47;'),
    ]),
  ]
}
const FORMS = [...Object.values(ISSUED), FRAGMENT, JWT, PASSWORD, SLASHED].flatMap(formsOf)
const leaks = (text: string): string[] => FORMS.filter((form) => text.includes(form))

function hostileUpstream(): http.Server {
  return http.createServer((req, res) => {
    req.resume()
    const url = new URL(req.url ?? '/', 'http://x')
    const json = (body: unknown): void => {
      const text = JSON.stringify(body)
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
    }
    if (url.pathname === '/login/camel') return json({ accessToken: ISSUED.camel, tokenType: 'Bearer' })
    if (url.pathname === '/login/pascal') return json({ AccessToken: ISSUED.pascal })
    if (url.pathname === '/login/kebab') return json({ 'access-token': ISSUED.kebab })
    if (url.pathname === '/login/nested') return json({ data: { session: { refreshToken: ISSUED.nested } } })
    if (url.pathname === '/authorize') {
      res
        .writeHead(302, {
          location: `https://app.example/cb#access_token=${FRAGMENT}&token_type=bearer`,
          'content-length': 0,
        })
        .end()
      return
    }
    if (url.pathname === '/profile') return json({ name: 'Runner', note: JWT })
    if (url.pathname === '/user') return json({ userID: 7 })
    if (url.pathname === '/echo') {
      // A server echoing what the client sent, in an ordinary field.
      return json({ seen: req.headers.authorization ?? '', previous: url.searchParams.get('q') ?? '' })
    }
    const page = `<html><body><p>No route; your token was ${SLASHED.replace(/\//g, '&#x2F;')} (&#47; form: ${SLASHED.replace(/\//g, '&#47;')}); retry at /again?t=${encodeURIComponent(encodeURIComponent(SLASHED))}</p></body></html>`
    res.writeHead(404, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) }).end(page)
  })
}

describe('the proxy learns secrets early and finds them by shape', () => {
  let upstream: http.Server
  let dir: string
  let recording: string
  const printed: string[] = []
  const io = { out: (line: string) => printed.push(line), err: (line: string) => printed.push(line) }

  beforeAll(async () => {
    upstream = hostileUpstream()
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    dir = mkdtempSync(join(tmpdir(), 'fitconform-secrets-shape-'))
    recording = join(dir, 'session.ndjson')
    const stop = new AbortController()
    let ready: (url: string) => void = () => {}
    const listening = new Promise<string>((resolve) => {
      ready = resolve
    })
    const target = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
    const running = runProxyCommand({ target, record: recording, signal: stop.signal, onReady: ready }, io)
    const base = await listening
    for (const style of Object.keys(ISSUED)) await request(`${base}/login/${style}`, { method: 'POST' })
    // Each issued token is then used as a Bearer token and echoed in an ordinary field.
    for (const token of Object.values(ISSUED))
      await request(`${base}/echo`, { headers: { authorization: `Bearer ${token}` } })
    await request(`${base}/authorize`)
    await request(`${base}/echo?q=${FRAGMENT}`)
    await request(`${base}/profile`, { headers: { accept: media('Profile') } })
    await request(`${base}/echo?q=${JWT}`)
    await request(`${base}/user`, {
      headers: { authorization: `Basic ${Buffer.from(`runner:${PASSWORD}`).toString('base64')}` },
    })
    await request(`${base}/echo?q=${encodeURIComponent(`my password is ${PASSWORD}`)}`)
    await request(`${base}/missing`, { headers: { authorization: `Bearer ${SLASHED}` } })
    stop.abort()
    expect(await running).toBe(0)
  }, 30_000)

  afterAll(async () => {
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('records every exchange', () => {
    expect(readFileSync(recording, 'utf8').trim().split('\n')).toHaveLength(15)
  })

  it('writes no secret to the recording, in any form, the exchange that delivered it included', () => {
    const lines = readFileSync(recording, 'utf8').trim().split('\n')
    const found = lines.flatMap((line, index) => leaks(line).map((form) => `line ${index + 1}: ${form}`))
    expect(found).toEqual([])
  })

  it('learns each issued token from the exchange that delivered it: its later uses show the same id', () => {
    const lines = readFileSync(recording, 'utf8').trim().split('\n')
    for (const [index, line] of lines.slice(4, 8).entries()) {
      const id = /Bearer \[redacted (tok_[0-9a-f]{12})\]/.exec(line)?.[1]
      expect(id, `echo line ${index + 5}`).toBeDefined()
      // The echo of the token in the body is replaced by the same id: the value was learnt, not only its header.
      expect(line).toContain(`[redacted ${id}]`.replace(/"/g, '\\"'))
    }
  })

  it('prints no secret', () => {
    expect(printed.some((line) => line.includes('/missing'))).toBe(true)
    expect(leaks(printed.join('\n'))).toEqual([])
  })
})
