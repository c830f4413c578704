// Issue 7 item 6: thousands of concurrent exchanges through the recording proxy, small, large (≥ 256 KB),
// chunked, and large uploads echoed back. Every body the client gets is byte-identical to what the
// upstream sent (both hash what goes by), and the recording holds every exchange exactly once, each on
// a whole line. Bounded: REQUESTS exchanges, CONCURRENCY at once, one timeout. Memory is measured by the
// benchmarks, never asserted here.
import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { startTestProxy, type TestProxy } from '../helpers.js'

const REQUESTS = 2000
const CONCURRENCY = 100
const LARGE = 300 * 1024
const UPLOAD = 260 * 1024
/** Recorded bodies are cut here, as `--max-body-bytes` would; forwarding is never cut. */
const MAX_BODY_BYTES = 64 * 1024

type Kind = 'small' | 'large' | 'binary' | 'chunked' | 'echo'
/** Every 20 requests: 10 small, 3 large text, 3 large binary, 2 chunked, 2 large uploads echoed back. */
const MIX: readonly Kind[] = [
  ...Array<Kind>(10).fill('small'),
  'large',
  'large',
  'large',
  'binary',
  'binary',
  'binary',
  'chunked',
  'chunked',
  'echo',
  'echo',
]
const kindOf = (id: number): Kind => MIX[id % MIX.length] as Kind

const TEXT = Buffer.from(
  JSON.stringify(Array.from({ length: LARGE / 16 }, (_, i) => ({ n: i, word: 'lorem' }))).slice(0, LARGE),
)
const BINARY = randomBytes(LARGE)

/** What the upstream sent (or was sent) per id, as it went by. */
interface UpstreamRecord {
  responseHash: string
  responseBytes: number
  requestHash?: string
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** The upstream: bodies vary with the id, so that a mixed-up response cannot pass for the right one. */
function upstreamHandler(records: Map<number, UpstreamRecord>): http.RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const id = Number(url.searchParams.get('id'))
    const received: Buffer[] = []
    req.on('data', (chunk: Buffer) => received.push(chunk))
    req.on('end', () => {
      const hash = createHash('sha256')
      let bytes = 0
      const send = (chunk: Buffer): void => {
        hash.update(chunk)
        bytes += chunk.length
        res.write(chunk)
      }
      const finish = (extra: Partial<UpstreamRecord> = {}): void => {
        records.set(id, { responseHash: hash.digest('hex'), responseBytes: bytes, ...extra })
        res.end()
      }
      const stamp = Buffer.from(`#${id}#`)
      switch (url.pathname) {
        case '/small': {
          const body = Buffer.from(JSON.stringify({ id, text: 'x'.repeat(id % 300) }))
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
          send(body)
          return finish()
        }
        case '/large':
        case '/binary': {
          const base = url.pathname === '/large' ? TEXT : BINARY
          res.writeHead(200, {
            'content-type': url.pathname === '/large' ? 'application/json' : 'application/octet-stream',
            'content-length': base.length + stamp.length,
          })
          send(stamp)
          send(base)
          return finish()
        }
        case '/chunked': {
          // No Content-Length: chunked transfer coding, written over several turns of the loop.
          res.writeHead(200, { 'content-type': 'text/plain' })
          let part = 0
          const next = (): void => {
            if (part === 8) return finish()
            send(Buffer.from(`${id}:${part}:${'y'.repeat(2000 + ((id * 7919 + part * 104729) % 30_000))}\n`))
            part += 1
            setImmediate(next)
          }
          return next()
        }
        case '/echo': {
          const body = Buffer.concat(received)
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length })
          send(body)
          return finish({ requestHash: sha256(body) })
        }
        default:
          res.writeHead(404).end()
      }
    })
  }
}

interface ClientResult {
  id: number
  status: number
  hash: string
  bytes: number
  sentHash?: string
}

function send(base: string, id: number, agent: http.Agent): Promise<ClientResult> {
  const kind = kindOf(id)
  const upload = kind === 'echo' ? Buffer.concat([Buffer.from(`#${id}#`), BINARY.subarray(0, UPLOAD)]) : undefined
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/${kind}?id=${id}`,
      {
        method: upload === undefined ? 'GET' : 'POST',
        agent,
        headers: {
          'x-load-id': String(id),
          ...(upload === undefined ? {} : { 'content-type': 'application/octet-stream' }),
        },
      },
      (res) => {
        const hash = createHash('sha256')
        let bytes = 0
        res.on('data', (chunk: Buffer) => {
          hash.update(chunk)
          bytes += chunk.length
        })
        res.on('end', () =>
          resolve({
            id,
            status: res.statusCode ?? 0,
            hash: hash.digest('hex'),
            bytes,
            sentHash: upload && sha256(upload),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    // Uploads go chunked half the time (no Content-Length), with Content-Length otherwise.
    if (upload !== undefined && id % 2 === 0) {
      req.write(upload.subarray(0, 100_000))
      req.end(upload.subarray(100_000))
    } else req.end(upload)
  })
}

function bodyHash(url: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const hash = createHash('sha256')
        res.on('data', (chunk: Buffer) => hash.update(chunk))
        res.on('end', () => resolve(hash.digest('hex')))
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

describe(`${REQUESTS} exchanges, ${CONCURRENCY} at once, through the recording proxy`, () => {
  const records = new Map<number, UpstreamRecord>()
  let upstream: http.Server
  let proxy: TestProxy
  const results: ClientResult[] = []
  let lines: string[] = []

  beforeAll(async () => {
    upstream = http.createServer(upstreamHandler(records))
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    proxy = await startTestProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      maxBodyBytes: MAX_BODY_BYTES,
    })
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    let next = 1
    const client = async (): Promise<void> => {
      while (next <= REQUESTS) {
        const id = next++
        results.push(await send(proxy.proxy.url, id, agent))
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, client))
    agent.destroy()
    await proxy.stop()
    lines = readFileSync(proxy.file, 'utf8').split('\n')
    // A bound, not a speed goal (those live in `npm run bench`): a few seconds alone, but past a minute
    // on 2 cores shared with the rest of the suite and other work.
  }, 180_000)

  afterAll(async () => {
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
    rmSync(dirname(proxy.file), { recursive: true, force: true })
  })

  it('gives every client the very bytes the upstream sent', () => {
    expect(results).toHaveLength(REQUESTS)
    const wrong = results.filter((result) => {
      const record = records.get(result.id)
      return (
        result.status !== 200 ||
        record === undefined ||
        result.hash !== record.responseHash ||
        result.bytes !== record.responseBytes
      )
    })
    expect(wrong.map((result) => `${kindOf(result.id)} #${result.id}`)).toEqual([])
    expect(results.filter((result) => kindOf(result.id) === 'large')[0]?.bytes).toBeGreaterThanOrEqual(256 * 1024)
  })

  it('hands every upload to the upstream unchanged', () => {
    const uploads = results.filter((result) => kindOf(result.id) === 'echo')
    expect(uploads.length).toBe(REQUESTS / 10)
    for (const upload of uploads) expect(records.get(upload.id)?.requestHash).toBe(upload.sentHash)
  })

  it('records every exchange exactly once, each on a whole line', () => {
    expect(lines.at(-1)).toBe('') // the file ends with a newline: no line is cut
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line) as ExchangeEntry)
    const ids = entries.map((entry) => Number(new URL(entry.request.url).searchParams.get('id')))
    const counts = new Map<number, number>()
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
    const missing = Array.from({ length: REQUESTS }, (_, i) => i + 1).filter((id) => !counts.has(id))
    const twice = [...counts].filter(([, count]) => count > 1).map(([id]) => id)
    expect({ missing, twice, lines: entries.length }).toEqual({ missing: [], twice: [], lines: REQUESTS })
    expect(proxy.proxy.stats.exchanges).toBe(REQUESTS)
  })

  it('records each exchange with its own id header and the sizes that went by', () => {
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line) as ExchangeEntry)
    for (const entry of entries) {
      const id = Number(new URL(entry.request.url).searchParams.get('id'))
      expect(entry.request.headers.find((header) => header.name === 'x-load-id')?.value).toBe(String(id))
      expect(entry.response.bodySize).toBe(records.get(id)?.responseBytes)
      expect(entry._error).toBeUndefined()
      if (kindOf(id) === 'echo') expect(entry.request.bodySize).toBe(UPLOAD + `#${id}#`.length)
      if (entry.response.bodySize > MAX_BODY_BYTES) expect(entry.response.content._truncated).toBe(true)
    }
  })
})

describe('a recording thread that cannot keep up', () => {
  it('holds new requests back until it has caught up, and loses none', async () => {
    // 512 KB JSON bodies recorded whole take the recording thread far longer than forwarding them:
    // the backlog reaches its bound within a few exchanges and the proxy must wait, not drop.
    const body = Buffer.from(
      JSON.stringify({ items: Array.from({ length: (512 * 1024) / 32 }, (_, i) => ({ n: i, text: 'held back' })) }),
    )
    const server = http.createServer((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body)
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const proxy = await startTestProxy(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 48 })
    const hashes = await Promise.all(Array.from({ length: 48 }, () => bodyHash(`${proxy.proxy.url}/held`, agent)))
    agent.destroy()
    const entries = await proxy.stop()
    server.closeAllConnections()
    server.close()
    rmSync(dirname(proxy.file), { recursive: true, force: true })
    expect(new Set(hashes)).toEqual(new Set([sha256(body)]))
    expect(entries).toHaveLength(48)
    expect(entries.every((entry) => entry.response.content.text?.length === body.length)).toBe(true)
  })
})
