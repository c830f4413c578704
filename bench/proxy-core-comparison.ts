/**
 * Which proxy core should proxy/forward/forwarder.ts use? Measures three candidates on loopback:
 *
 *   http-proxy    http-proxy 1.18.1 with a keep-alive http.Agent and an error listener
 *   http-proxy-3  http-proxy-3 1.x with a keep-alive http.Agent and an error listener
 *   undici        node:http server + undici Pool (proxy/forward/forwarder.ts as shipped)
 *   undici + recording   the whole `fitconform proxy --record` (throughput only: the cost of recording)
 *
 * Throughput and latency: autocannon (programmatic) against a plain node:http upstream answering 1 KB and
 * 100 KB bodies; the upstream, each proxy and autocannon run on separate threads so that they do not
 * share one event loop. A "direct" row (no proxy) gives the ceiling. Then the correctness cases of
 * issue 5: stray bytes after HEAD and 304, repeated Set-Cookie, cancellation on client abort, DELETE
 * without a gained Content-Length, unreachable upstream, upstream keep-alive, gzip and chunked bytes.
 *
 * Bounded: `--duration` seconds per throughput case (default 3), loopback only, stops by itself.
 *
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/proxy-core-comparison.js [--duration 3] [--json FILE]
 */
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { gzipSync } from 'node:zlib'
import { createForwarder } from '../proxy/forward/forwarder.js'
import { upstreamPathFor } from '../proxy/forward/target.js'
import { startProxy } from '../proxy/forward/proxy-server.js'
import { proxySettings } from '../proxy/forward/proxy-settings.js'
import { SecretScrubber } from '../proxy/recording/redaction.js'

const require = createRequire(import.meta.url)

type CoreName = 'http-proxy' | 'http-proxy-3' | 'undici'
const CORES: readonly CoreName[] = (['http-proxy', 'http-proxy-3', 'undici'] as const).filter(isInstalled)

function isInstalled(core: CoreName): boolean {
  if (core === 'undici') return true
  try {
    require.resolve(core)
    return true
  } catch {
    process.stderr.write(`${core} is not installed: left out of the comparison\n`)
    return false
  }
}

interface Running {
  readonly url: string
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// The three cores, each behind the same `startCore(name, target)`.

async function startCore(name: CoreName, target: string): Promise<Running> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void
  let closeCore: () => Promise<void> = async () => {}
  const onProxyError = (err: Error, _req: unknown, res: unknown): void => {
    const response = res as http.ServerResponse
    if (typeof response.writeHead !== 'function' || response.headersSent) {
      ;(response as unknown as net.Socket).destroy?.()
      return
    }
    response.writeHead(502, { 'content-type': 'text/plain' })
    response.end(`proxy error: ${(err as { code?: string }).code ?? err.message}`)
  }
  if (name === 'undici') {
    const targetUrl = new URL(target)
    const forwarder = createForwarder(targetUrl, proxySettings({ target: targetUrl }).forward)
    handle = (req, res) => {
      const mapped = upstreamPathFor(targetUrl, req.url ?? '/')
      if ('path' in mapped) forwarder.forward({ req, res, upstreamPath: mapped.path, observer: { onDone: () => {} } })
      else res.writeHead(400).end()
    }
    closeCore = () => forwarder.close()
  } else {
    // Loaded by name so that the comparison still runs (without them) once they are uninstalled;
    // http-proxy 1.18.1 ships no types, and both share its createProxyServer/web/on('error') API.
    const library = require(name)
    const proxy = library.createProxyServer({ target, agent })
    proxy.on('error', onProxyError)
    handle = (req, res) => proxy.web(req, res)
  }
  const server = http.createServer(handle)
  server.keepAliveTimeout = 5000
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      agent.destroy()
      await closeCore()
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Throughput: worker threads for the upstream and each proxy.

const SMALL = Buffer.alloc(1024, 'a')
const LARGE = Buffer.alloc(100 * 1024, 'b')

async function startUpstream(): Promise<Running & { connections: () => number }> {
  let connections = 0
  const server = http.createServer((req, res) => {
    const body = req.url?.startsWith('/large') ? LARGE : SMALL
    req.resume()
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length })
    res.end(body)
  })
  server.on('connection', () => {
    connections += 1
  })
  server.keepAliveTimeout = 5000
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

interface WorkerJob {
  readonly role: 'upstream' | 'proxy' | 'recording-proxy'
  readonly core?: CoreName
  readonly target?: string
}

async function runWorker(job: WorkerJob): Promise<void> {
  const port = parentPort
  if (port === null) return
  if (job.role === 'upstream') {
    const upstream = await startUpstream()
    port.postMessage({ url: upstream.url })
    port.on('message', (message: string) => {
      if (message === 'connections') port.postMessage({ connections: upstream.connections() })
      if (message === 'close') void upstream.close().then(() => process.exit(0))
    })
    return
  }
  const core =
    job.role === 'recording-proxy'
      ? await startRecordingProxy(job.target as string)
      : await startCore(job.core as CoreName, job.target as string)
  port.postMessage({ url: core.url })
  port.on('message', (message: string) => {
    if (message === 'close') void core.close().then(() => process.exit(0))
  })
}

/** The shipped proxy as `fitconform proxy --record` runs it: forwarder, recorder, analysis, NDJSON log. */
async function startRecordingProxy(target: string): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'fitconform-bench-'))
  const proxy = await startProxy({
    settings: proxySettings({ target: new URL(target), record: join(dir, 'bench.ndjson') }),
    redactor: new SecretScrubber(),
  })
  return {
    url: proxy.url,
    close: async () => {
      await proxy.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

interface WorkerHandle {
  readonly url: string
  ask<T>(message: string): Promise<T>
  stop(): Promise<void>
}

async function spawn(job: WorkerJob): Promise<WorkerHandle> {
  const worker = new Worker(new URL(import.meta.url), { workerData: job })
  const [ready] = (await once(worker, 'message')) as [{ url: string }]
  return {
    url: ready.url,
    ask: async <T>(message: string) => {
      worker.postMessage(message)
      const [answer] = (await once(worker, 'message')) as [T]
      return answer
    },
    stop: async () => {
      worker.postMessage('close')
      await Promise.race([once(worker, 'exit'), sleep(2000).then(() => worker.terminate())])
    },
  }
}

interface LoadFigures {
  readonly core: string
  readonly body: '1 KB' | '100 KB'
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
  readonly upstreamConnections: number
}

async function measure(options: {
  url: string
  durationSeconds: number
}): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const autocannon = require('autocannon') // 9.x ships no types
  const result = await autocannon({
    url: options.url,
    connections: 16,
    pipelining: 1,
    duration: options.durationSeconds,
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

async function throughput(durationSeconds: number): Promise<LoadFigures[]> {
  const figures: LoadFigures[] = []
  for (const core of ['direct', ...CORES, 'undici + recording'] as const) {
    const upstream = await spawn({ role: 'upstream' })
    const proxy =
      core === 'direct'
        ? undefined
        : core === 'undici + recording'
          ? await spawn({ role: 'recording-proxy', target: upstream.url })
          : await spawn({ role: 'proxy', core, target: upstream.url })
    const base = proxy?.url ?? upstream.url
    for (const [body, path] of [
      ['1 KB', '/small'],
      ['100 KB', '/large'],
    ] as const) {
      const before = (await upstream.ask<{ connections: number }>('connections')).connections
      const m = await measure({ url: `${base}${path}`, durationSeconds })
      const after = (await upstream.ask<{ connections: number }>('connections')).connections
      figures.push({
        core,
        body,
        requestsPerSecond: m.rps,
        p50Ms: m.p50,
        p99Ms: m.p99,
        errors: m.errors,
        upstreamConnections: after - before,
      })
    }
    await proxy?.stop()
    await upstream.stop()
  }
  return figures
}

// ---------------------------------------------------------------------------------------------
// Correctness cases, in-process.

const POISON = 'HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nPOISON'

/**
 * A raw upstream that sends stray bytes after a bodiless response (HEAD, 304): they leave with the next
 * response on the same connection, as a server whose late body write races the next request would.
 */
async function startStrayBytesUpstream(): Promise<Running> {
  const server = net.createServer((socket) => {
    let buffered = ''
    let owed = ''
    socket.on('data', (data) => {
      buffered += data.toString('latin1')
      let end: number
      while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
        const head = buffered.slice(0, end)
        buffered = buffered.slice(end + 4)
        if (head.startsWith('HEAD ')) {
          socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n\r\n')
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
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

interface ClientResult {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
}

function send(url: string, options: http.RequestOptions = {}): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.setTimeout(3000, () => req.destroy(new Error('client timeout')))
    req.end()
  })
}

type CaseResult = 'ok' | string

async function strayBytesCase(core: CoreName, kind: 'HEAD' | '304'): Promise<CaseResult> {
  const upstream = await startStrayBytesUpstream()
  const proxy = await startCore(core, upstream.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    if (kind === 'HEAD') await send(`${proxy.url}/a`, { method: 'HEAD', agent })
    else await send(`${proxy.url}/a`, { agent, headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } })
    await sleep(40)
    const next = await send(`${proxy.url}/next`, { agent })
    return next.body.toString() === 'ok'
      ? 'ok'
      : `next response poisoned (${next.status} ${JSON.stringify(next.body.toString())})`
  } catch (err) {
    return `next request failed: ${(err as Error).message}`
  } finally {
    agent.destroy()
    await proxy.close()
    await upstream.close()
  }
}

async function withUpstream(
  core: CoreName,
  handler: http.RequestListener,
  body: (proxyUrl: string, upstream: http.Server) => Promise<CaseResult>,
): Promise<CaseResult> {
  const server = http.createServer(handler)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const proxy = await startCore(core, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  try {
    return await body(proxy.url, server)
  } catch (err) {
    return `failed: ${(err as Error).message}`
  } finally {
    await proxy.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

function setCookieCase(core: CoreName): Promise<CaseResult> {
  return withUpstream(
    core,
    (_req, res) => {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly'])
      res.end('x')
    },
    async (url) => {
      const got = await send(url)
      const cookies = got.headers['set-cookie'] ?? []
      return cookies.length === 2 ? 'ok' : `got ${cookies.length} Set-Cookie header(s): ${JSON.stringify(cookies)}`
    },
  )
}

function abortCase(core: CoreName): Promise<CaseResult> {
  let upstreamClosed = false
  return withUpstream(
    core,
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first chunk')
      res.on('close', () => {
        upstreamClosed = true
      })
    },
    async (url) => {
      await new Promise<void>((resolve) => {
        const req = http.get(url, (res) => {
          res.once('data', () => {
            req.destroy()
            resolve()
          })
        })
        req.on('error', () => resolve())
      })
      for (let i = 0; i < 20 && !upstreamClosed; i += 1) await sleep(50)
      return upstreamClosed ? 'ok' : 'upstream request still running 1 s after the client aborted'
    },
  )
}

function deleteCase(core: CoreName): Promise<CaseResult> {
  let seen: http.IncomingHttpHeaders = {}
  return withUpstream(
    core,
    (req, res) => {
      seen = req.headers
      req.resume()
      res.writeHead(204)
      res.end()
    },
    async (url) => {
      await send(`${url}/fitnessActivities/1`, { method: 'DELETE' })
      const gained = ['content-length', 'transfer-encoding'].filter((name) => seen[name] !== undefined)
      return gained.length === 0
        ? 'ok'
        : `DELETE gained ${gained.map((name) => `${name}: ${String(seen[name])}`).join(', ')}`
    },
  )
}

function keepAliveCase(core: CoreName): Promise<CaseResult> {
  let connections = 0
  return withUpstream(
    core,
    (_req, res) => res.end('ok'),
    async (url, server) => {
      server.on('connection', () => {
        connections += 1
      })
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      for (let i = 0; i < 50; i += 1) await send(url, { agent })
      agent.destroy()
      return connections <= 2 ? 'ok' : `${connections} upstream connections for 50 sequential requests`
    },
  )
}

function bytesCase(core: CoreName): Promise<CaseResult> {
  const gz = gzipSync(Buffer.alloc(5000, 'z'))
  const parts = ['alpha-', 'beta-', 'gamma']
  return withUpstream(
    core,
    (req, res) => {
      if (req.url === '/gz') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' })
        res.end(gz)
        return
      }
      res.writeHead(200, { 'content-type': 'text/plain' }) // no length: chunked
      let i = 0
      const next = (): void => {
        const part = parts[i++]
        if (part === undefined) res.end()
        else res.write(part, () => setTimeout(next, 5))
      }
      next()
    },
    async (url) => {
      const zipped = await send(`${url}/gz`, { headers: { 'accept-encoding': 'gzip' } })
      if (!zipped.body.equals(gz)) return 'gzip bytes changed'
      const chunked = await send(`${url}/chunked`)
      if (chunked.body.toString() !== parts.join('')) return 'chunked body changed'
      return 'ok'
    },
  )
}

async function downCase(core: CoreName): Promise<CaseResult> {
  const probe = net.createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  const proxy = await startCore(core, `http://127.0.0.1:${port}`)
  try {
    const first = await send(proxy.url)
    const second = await send(proxy.url)
    return first.status === 502 && second.status === 502 ? 'ok' : `statuses ${first.status}, ${second.status}`
  } catch (err) {
    return `failed: ${(err as Error).message}`
  } finally {
    await proxy.close()
  }
}

const CASES: Record<string, (core: CoreName) => Promise<CaseResult>> = {
  'stray bytes after HEAD': (core) => strayBytesCase(core, 'HEAD'),
  'stray bytes after 304': (core) => strayBytesCase(core, '304'),
  'two Set-Cookie stay two': setCookieCase,
  'client abort cancels upstream': abortCase,
  'DELETE gains no length': deleteCase,
  'upstream down: 502, still serving': downCase,
  'upstream keep-alive': keepAliveCase,
  'gzip and chunked bytes': bytesCase,
}

async function correctness(): Promise<Record<string, Record<CoreName, CaseResult>>> {
  const table: Record<string, Record<CoreName, CaseResult>> = {}
  for (const [name, run] of Object.entries(CASES)) {
    const row = {} as Record<CoreName, CaseResult>
    for (const core of CORES) row[core] = await withTimeout(run(core), 8000)
    table[name] = row
  }
  return table
}

// ---------------------------------------------------------------------------------------------

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function withTimeout(promise: Promise<CaseResult>, ms: number): Promise<CaseResult> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<CaseResult>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}

async function main(): Promise<void> {
  const durationSeconds = Number(argValue('--duration') ?? '3')
  process.stdout.write(
    `proxy core comparison: node ${process.version}, ${durationSeconds} s per case, 16 connections\n\n`,
  )
  const load = await throughput(durationSeconds)
  process.stdout.write('core                body     req/s   p50 ms  p99 ms  errors  upstream conns\n')
  for (const f of load) {
    process.stdout.write(
      `${f.core.padEnd(19)} ${f.body.padEnd(7)} ${String(f.requestsPerSecond).padStart(6)}  ${String(f.p50Ms).padStart(6)}  ${String(f.p99Ms).padStart(6)}  ${String(f.errors).padStart(6)}  ${String(f.upstreamConnections).padStart(6)}\n`,
    )
  }
  const cases = await correctness()
  process.stdout.write(`\n${'case'.padEnd(36)}${CORES.map((core) => core.padEnd(14)).join('')}\n`)
  for (const [name, row] of Object.entries(cases)) {
    process.stdout.write(
      `${name.padEnd(36)}${CORES.map((core) => (row[core] === 'ok' ? 'ok' : 'FAIL').padEnd(14)).join('')}\n`,
    )
    for (const core of CORES) if (row[core] !== 'ok') process.stdout.write(`    ${core}: ${row[core]}\n`)
  }
  const jsonFile = argValue('--json')
  if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify({ load, cases }, null, 2)}\n`)
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${String((err as Error).stack ?? err)}\n`)
      process.exit(1)
    },
  )
} else {
  void runWorker(workerData as WorkerJob)
}
