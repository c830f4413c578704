// Upstream down, too slow, cut mid-body; a client that goes away mid-response or mid-request: the client
// gets a plain-text 502/504 (or a cut connection once the response has started), the exchange is
// recorded as failed on one whole line, the upstream request is cancelled, and the proxy keeps serving.
import { EventEmitter, once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runHarCommand } from '../../../../proxy/commands/har-command.js'
import { recordingFiles } from '../../../../proxy/recording/exchange-log.js'
import { summarizeRecordings } from '../../../../proxy/reading/summarize-recording.js'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { readEntries, request, startTestProxy, type Received, type TestProxy } from '../helpers.js'

describe('faults', () => {
  let upstream: http.Server
  let target: string
  let proxy: TestProxy
  // The upstream says what it saw, so each test waits on the event itself rather than on a delay.
  const seen = new EventEmitter()

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      if (req.url === '/slow-head') return // never answers
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' })
        res.write('only a part')
        setTimeout(() => res.socket?.destroy(), 20)
        return
      }
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write('first chunk')
        res.on('close', () => seen.emit('stream-closed'))
        return
      }
      if (req.url === '/upload') {
        req.on('aborted', () => seen.emit('upload-aborted'))
        req.on('error', () => {})
        req.once('data', () => seen.emit('upload-started'))
        req.resume()
        return
      }
      res.end('ok')
    })
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    proxy = await startTestProxy(target, { timeout: 300 })
  })

  afterAll(async () => {
    await proxy.proxy.close()
    upstream.closeAllConnections()
    upstream.close()
  })

  it('answers 504 in plain text when the upstream is too slow, and keeps serving', async () => {
    const slow = await request(`${proxy.proxy.url}/slow-head`)
    expect(slow.status).toBe(504)
    expect(slow.headers['content-type']).toMatch(/^text\/plain/)
    expect(slow.body.toString()).toContain('too slow')
    expect((await request(`${proxy.proxy.url}/ok`)).body.toString()).toBe('ok')
  })

  it('cuts the client connection when the upstream dies mid-body, and keeps serving', async () => {
    await expect(request(`${proxy.proxy.url}/cut`)).rejects.toThrow()
    expect((await request(`${proxy.proxy.url}/ok`)).status).toBe(200)
  })

  /** A client that goes away after the first bytes of the response; resolves once the upstream saw its request closed. */
  async function leaveMidResponse(proxyUrl: string): Promise<void> {
    const upstreamClosed = once(seen, 'stream-closed')
    const req = http.get(`${proxyUrl}/stream`, (res) => res.once('data', () => req.destroy()))
    req.on('error', () => {})
    await upstreamClosed
  }

  /** A client that goes away after part of its request body; resolves once the upstream saw the request aborted. */
  async function leaveMidRequest(proxyUrl: string): Promise<void> {
    const upstreamStarted = once(seen, 'upload-started')
    const upstreamAborted = once(seen, 'upload-aborted')
    const socket = net.connect(Number(new URL(proxyUrl).port), '127.0.0.1')
    await once(socket, 'connect')
    socket.write(
      'POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n0123456789',
    )
    await upstreamStarted
    socket.destroy()
    await upstreamAborted
  }

  it('cancels the upstream request when the client goes away mid-response', async () => {
    // Resolves only if the upstream request is closed; a proxy that never cancels it fails on the timeout.
    await leaveMidResponse(proxy.proxy.url)
    expect((await request(`${proxy.proxy.url}/ok`)).status).toBe(200)
  })

  it('cancels the upstream request when the client goes away mid-request', async () => {
    await leaveMidRequest(proxy.proxy.url)
    expect((await request(`${proxy.proxy.url}/ok`)).status).toBe(200)
  })

  it('records every failure on a whole line', async () => {
    // Its own proxy and recording: this test does not lean on what the tests above left behind.
    const own = await startTestProxy(target, { timeout: 300 })
    expect((await request(`${own.proxy.url}/slow-head`)).status).toBe(504)
    await expect(request(`${own.proxy.url}/cut`)).rejects.toThrow()
    await leaveMidResponse(own.proxy.url)
    await leaveMidRequest(own.proxy.url)
    const entries = await own.stop() // close waits for every exchange in flight to be recorded
    const codes = entries.map((entry) => entry._error?.code).filter(Boolean)
    expect(codes.sort()).toEqual(['E_CLIENT_ABORTED', 'E_CLIENT_ABORTED', 'E_TIMEOUT', 'E_UPSTREAM_RESET'])
    const timeout = entries.find((entry) => entry._error?.code === 'E_TIMEOUT') as ExchangeEntry
    expect(timeout.response.status).toBe(504)
    const cut = entries.find((entry) => entry._error?.code === 'E_UPSTREAM_RESET') as ExchangeEntry
    expect(cut._error?.afterResponseStart).toBe(true)
    expect(cut.response.status).toBe(200)
  })
})

describe('an unreachable upstream', () => {
  it('answers 502 in plain text, records E_CONNECT, and keeps serving', async () => {
    const probe = net.createServer().listen(0, '127.0.0.1')
    await once(probe, 'listening')
    const port = (probe.address() as AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
    const proxy = await startTestProxy(`http://127.0.0.1:${port}`)
    const first = await request(`${proxy.proxy.url}/user`)
    const second = await request(`${proxy.proxy.url}/user`)
    expect([first.status, second.status]).toEqual([502, 502])
    expect(first.body.toString()).toContain('ECONNREFUSED')
    const entries = await proxy.stop()
    expect(entries.map((entry) => entry._error?.code)).toEqual(['E_CONNECT', 'E_CONNECT'])
  })
})

describe('rotation', () => {
  /** Twelve exchanges through a proxy that rotates its recording past 3000 bytes; returns the recording's name. */
  async function recordRotated(body: string): Promise<string> {
    const upstream = http.createServer((_req, res) => res.end(body.repeat(200)))
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    const proxy = await startTestProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      maxBytes: 3000,
    })
    for (let i = 0; i < 12; i += 1) await request(`${proxy.proxy.url}/n${i}`)
    await proxy.stop()
    upstream.close()
    return proxy.file
  }

  it('starts a new file past --max-bytes and loses no line', async () => {
    const recording = await recordRotated('x')
    const files = recordingFiles(recording)
    expect(files.length).toBeGreaterThan(2)
    const ids = files.flatMap((file) => readEntries(file).map((entry) => entry._id))
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
    expect((await summarizeRecordings(files)).exchanges).toBe(12)
  })

  it('analyzes and converts every part of a rotated recording when only its name is given', async () => {
    const file = await recordRotated('y')
    expect(recordingFiles(file).length).toBeGreaterThan(2)
    const out: string[] = []
    const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) }
    expect(await runAnalyzeCommand([file], { json: true }, io)).toBeLessThan(2)
    expect((JSON.parse(out.join('\n')) as { exchanges: number }).exchanges).toBe(12)
    out.length = 0
    expect(await runHarCommand([file], { output: `${file}.har` }, io)).toBe(0)
    expect(out).toEqual([`wrote 12 entries to ${file}.har`])
  })
})

describe('stray bytes after a bodiless response', () => {
  // A broken upstream whose late body bytes leave with the next response on the same connection.
  const POISON = 'HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nPOISON'
  it.each([
    ['HEAD', { method: 'HEAD' }],
    ['304', { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } }],
  ])('after %s, the next exchange gets its own response', async (_kind, options) => {
    const upstream = net.createServer((socket) => {
      let buffered = ''
      let owed = ''
      socket.on('data', (data) => {
        buffered += data.toString('latin1')
        let end: number
        while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
          const head = buffered.slice(0, end)
          buffered = buffered.slice(end + 4)
          if (head.startsWith('HEAD ')) {
            socket.write('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\n')
            owed = POISON
          } else if (/if-modified-since/i.test(head)) {
            socket.write('HTTP/1.1 304 Not Modified\r\n\r\n')
            owed = POISON
          } else {
            socket.write(`${owed}HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok`)
            owed = ''
          }
        }
      })
      socket.on('error', () => {})
    })
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    const proxy = await startTestProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    await request(`${proxy.proxy.url}/a`, { ...options, agent })
    const next = await request(`${proxy.proxy.url}/next`, { agent })
    agent.destroy()
    await proxy.stop()
    upstream.close()
    expect(next.body.toString()).toBe('ok')
  })
})

describe('the upstream connection after a conditional read', () => {
  // The upstream numbers its connections and says which one served each request.
  it('is kept after a 200 and closed after a 304; both are recorded whole, without an error', async () => {
    let connections = 0
    const upstream = http.createServer((req, res) => {
      const socket = req.socket as net.Socket & { number?: number }
      socket.number ??= ++connections
      const headers = { 'x-connection': String(socket.number), 'last-modified': 'Tue, 01 Mar 2011 08:00:00 GMT' }
      if (req.headers['if-modified-since'] === 'Tue, 01 Mar 2011 08:00:00 GMT') res.writeHead(304, headers).end()
      else res.writeHead(200, { ...headers, 'content-type': 'text/plain', 'content-length': '2' }).end('ok')
    })
    upstream.listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    const proxy = await startTestProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const conditional = (since: string) => ({ agent, headers: { 'if-modified-since': since } })
    const answers: Received[] = []
    answers.push(await request(`${proxy.proxy.url}/a`, conditional('Mon, 28 Feb 2011 08:00:00 GMT')))
    answers.push(await request(`${proxy.proxy.url}/b`, conditional('Mon, 28 Feb 2011 08:00:00 GMT')))
    answers.push(await request(`${proxy.proxy.url}/c`, conditional('Tue, 01 Mar 2011 08:00:00 GMT')))
    answers.push(await request(`${proxy.proxy.url}/d`, { agent }))
    agent.destroy()
    const entries = await proxy.stop()
    upstream.close()
    expect(answers.map((each) => [each.status, each.headers['x-connection'], each.body.toString()])).toEqual([
      [200, '1', 'ok'],
      [200, '1', 'ok'],
      [304, '1', ''],
      [200, '2', 'ok'],
    ])
    expect(entries.map((entry) => [new URL(entry.request.url).pathname, entry.response.status, entry._error])).toEqual([
      ['/a', 200, undefined],
      ['/b', 200, undefined],
      ['/c', 304, undefined],
      ['/d', 200, undefined],
    ])
  })
})
