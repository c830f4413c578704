// What the client receives through the proxy equals what it receives from the server directly (status,
// reason, end-to-end headers in order, body bytes), and what the server receives through the proxy
// equals what it receives from the client directly; over plain HTTP and through the TLS listener.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { endToEnd, request, startTestProxy, type ClientOptions, type Received, type TestProxy } from '../helpers.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

interface Seen {
  method: string
  url: string
  rawHeaders: string[]
  body: Buffer
}

const LARGE = randomBytes(300 * 1024)
const GZIPPED = gzipSync(
  Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ n: i, text: 'lorem ipsum' })) })),
)

/** The upstream: answers by path and remembers every request it got. */
function handler(seen: Seen[]): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      })
      const path = (req.url ?? '').split('?')[0]
      if (path === '/plain') {
        res.writeHead(200, 'Fine Indeed', [
          'Content-Type',
          'text/plain',
          'X-One',
          '1',
          'Set-Cookie',
          'a=1; Path=/',
          'Set-Cookie',
          'b=2; HttpOnly',
          'X-Two',
          'two',
        ])
        res.end('hello')
      } else if (path === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'accept-encoding' })
        res.end(GZIPPED)
      } else if (path === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write('alpha ')
        setTimeout(() => {
          res.write('beta ')
          setTimeout(() => res.end('gamma'), 5)
        }, 5)
      } else if (path === '/large') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': LARGE.length })
        res.end(LARGE)
      } else if (path === '/not-modified') {
        res.writeHead(304, { etag: '"v1"', 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' })
        res.end()
      } else if (path === '/thing' && req.method === 'DELETE') {
        res.writeHead(204, { 'x-deleted': 'yes' })
        res.end()
      } else if (path === '/echo') {
        res.writeHead(201, {
          location: '/echo/1',
          'content-type': req.headers['content-type'] ?? 'application/octet-stream',
        })
        res.end(Buffer.concat(chunks))
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' })
        res.end('no')
      }
    })
  }
}

const CASES: [string, string, ClientOptions][] = [
  [
    'GET with two Set-Cookie',
    '/plain?x=1&y=two',
    { headers: { accept: 'text/plain', 'x-req': 'a', cookie: 'session=abc123def' } },
  ],
  ['gzip passes compressed', '/gzip', { headers: { 'accept-encoding': 'gzip' } }],
  ['chunked', '/chunked', {}],
  ['300 KB body', '/large', {}],
  ['HEAD', '/plain', { method: 'HEAD' }],
  ['304', '/not-modified', { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } }],
  ['DELETE without a body', '/thing', { method: 'DELETE' }],
  [
    'POST with Content-Length',
    '/echo',
    { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '13' }, body: '{"a":"hello"}' },
  ],
  [
    'POST chunked, 200 KB',
    '/echo',
    { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: LARGE.subarray(0, 200 * 1024) },
  ],
]

function compareThrough(
  name: string,
  get: () => { direct: string; proxied: string; seen: Seen[]; agent: http.Agent | https.Agent; ca?: Buffer },
): void {
  describe(name, () => {
    it.each(CASES)('%s: the client and the server see the same thing', async (_title, path, options) => {
      const { direct, proxied, seen, agent, ca } = get()
      const before = seen.length
      const viaServer: Received = await request(`${direct}${path}`, { ...options, ...(ca === undefined ? {} : { ca }) })
      const serverSawDirect = seen[before] as Seen
      const viaProxy: Received = await request(`${proxied}${path}`, {
        ...options,
        agent,
        ...(ca === undefined ? {} : { ca }),
      })
      const serverSawProxied = seen[before + 1] as Seen
      expect(viaProxy.status).toBe(viaServer.status)
      expect(viaProxy.statusText).toBe(viaServer.statusText)
      expect(endToEnd(viaProxy.rawHeaders)).toEqual(endToEnd(viaServer.rawHeaders))
      expect(viaProxy.body.equals(viaServer.body)).toBe(true)
      expect(serverSawProxied.method).toBe(serverSawDirect.method)
      expect(serverSawProxied.url).toBe(serverSawDirect.url)
      expect(endToEnd(serverSawProxied.rawHeaders)).toEqual(endToEnd(serverSawDirect.rawHeaders))
      expect(serverSawProxied.body.equals(serverSawDirect.body)).toBe(true)
    })
  })
}

describe('forwarding over HTTP', () => {
  const seen: Seen[] = []
  let upstream: http.Server
  let direct: string
  let proxy: TestProxy
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  let entries: ExchangeEntry[] = []

  beforeAll(async () => {
    upstream = http.createServer(handler(seen)).listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    direct = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    proxy = await startTestProxy(direct, { maxBodyBytes: 64 * 1024 })
  })

  afterAll(async () => {
    agent.destroy()
    upstream.closeAllConnections()
    upstream.close()
  })

  compareThrough('each case', () => ({ direct, proxied: proxy.proxy.url, seen, agent }))

  describe('the recording of the same traffic', () => {
    beforeAll(async () => {
      entries = await proxy.stop()
    })

    it('holds one line per exchange, cookies redacted, keys sorted', () => {
      expect(entries).toHaveLength(CASES.length)
      const text = readFileSync(proxy.file, 'utf8')
      expect(text).not.toContain('abc123def')
      const first = text.split('\n')[0] as string
      const keys = Object.keys(JSON.parse(first) as object)
      expect(keys).toEqual([...keys].sort())
      const plain = entries[0] as ExchangeEntry
      expect(plain.response.headers.filter((h) => h.name === 'set-cookie')).toHaveLength(2)
      expect(plain.response.cookies.map((c) => c.name)).toEqual(['a', 'b'])
    })

    it('records a gzip body decoded, and a large one truncated as base64', () => {
      const gzip = entries.find((entry) => entry.request.url.endsWith('/gzip')) as ExchangeEntry
      expect(JSON.parse(gzip.response.content.text ?? '')).toHaveProperty('items')
      expect(gzip.response.bodySize).toBe(GZIPPED.length)
      const large = entries.find((entry) => entry.request.url.endsWith('/large')) as ExchangeEntry
      expect(large.response.content.encoding).toBe('base64')
      expect(large.response.content._truncated).toBe(true)
      expect(Buffer.from(large.response.content.text ?? '', 'base64').equals(LARGE.subarray(0, 64 * 1024))).toBe(true)
      const chunkedPost = entries.filter((entry) => entry.request.method === 'POST')[1] as ExchangeEntry
      expect(chunkedPost.request.bodySize).toBe(200 * 1024)
      expect(chunkedPost.request.postData?._truncated).toBe(true)
    })
  })
})

describe('forwarding through the TLS listener to an HTTPS target', () => {
  const seen: Seen[] = []
  let upstream: https.Server
  let direct: string
  let proxy: TestProxy
  let strictProxy: TestProxy
  let cert: Buffer
  let agent: https.Agent

  beforeAll(async () => {
    // A throwaway certificate for 127.0.0.1, made at test time.
    const dir = makeTempDir('fitconform-tls-')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    cert = readFileSync(join(dir, 'cert.pem'))
    const key = readFileSync(join(dir, 'key.pem'))
    upstream = https.createServer({ cert, key }, handler(seen)).listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    direct = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    proxy = await startTestProxy(direct, { tls: { cert, key }, insecure: true })
    strictProxy = await startTestProxy(direct)
    agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: cert })
  })

  afterAll(async () => {
    agent.destroy()
    await proxy.stop()
    await strictProxy.stop()
    upstream.closeAllConnections()
    upstream.close()
  })

  it('prints an https:// URL', () => {
    expect(proxy.proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
  })

  compareThrough('each case over TLS', () => ({ direct, proxied: proxy.proxy.url, seen, agent, ca: cert }))

  it('refuses a self-signed target without --insecure, with a plain-text 502', async () => {
    const got = await request(`${strictProxy.proxy.url}/plain`)
    expect(got.status).toBe(502)
    expect(got.body.toString()).toMatch(/TLS|certificate|CERT/i)
  })
})
