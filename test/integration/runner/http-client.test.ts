import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHttpClient } from '../../../src/execute/http/http-client.js'
import { classifyTransportError } from '../../../src/shared/transport-failure.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

const servers: LoopbackServer[] = []
afterEach(async () => {
  vi.unstubAllEnvs()
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

describe('the runner HTTP client (undici)', () => {
  it('sends the method, path, query, headers and body it is given, and reads status, headers and body', async () => {
    const bodies: string[] = []
    const server = await startLoopbackServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        bodies.push(`${request.headers['x-probe']} ${Buffer.concat(chunks).toString('utf8')}`)
        response.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' }).end('{"ok":true}')
      })
    })
    servers.push(server)
    const client = createHttpClient({ timeoutMs: 5000, insecure: false })
    try {
      const response = await client.send({
        method: 'POST',
        url: `${server.url}/a/b?c=1&d=%20`,
        headers: { 'x-probe': 'p', 'content-type': 'application/json' },
        body: '{"n":1}',
        wire: false,
      })
      expect(response.status).toBe(201)
      expect(response.headers['x-answer']).toBe('yes')
      expect(response.body.toString('utf8')).toBe('{"ok":true}')
    } finally {
      await client.close()
    }
    expect(server.requests).toEqual(['POST /a/b?c=1&d=%20'])
    expect(bodies).toEqual(['p {"n":1}'])
  })

  it('gives up on a body that trickles in past the timeout, as a timeout', async () => {
    // A byte every 100 ms: undici's headers and body timeouts (the wait between chunks) never fire.
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      const drip = setInterval(() => response.write('x'), 100)
      response.on('close', () => clearInterval(drip))
    })
    servers.push(server)
    const client = createHttpClient({ timeoutMs: 500, insecure: false })
    try {
      const error = await client.send({ method: 'GET', url: `${server.url}/slow`, headers: {}, wire: false }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      expect(classifyTransportError(error)).toEqual({ failure: 'timeout', code: 'TimeoutError' })
    } finally {
      await client.close()
    }
  })

  it('goes through the proxy that HTTP_PROXY names', async () => {
    // undici tunnels through the proxy with CONNECT; this proxy answers behind the tunnel itself.
    const answering = createServer((request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`from behind the proxy: ${request.method} ${request.url}`),
    )
    const connects: string[] = []
    const proxy = createServer()
    proxy.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      connects.push(request.url ?? '')
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) socket.unshift(head)
      answering.emit('connection', socket)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    vi.stubEnv('HTTP_PROXY', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)
    vi.stubEnv('NO_PROXY', '')
    const client = createHttpClient({ timeoutMs: 5000, insecure: false })
    try {
      // Port 9 (discard) on loopback: nothing listens there, so only the proxy can answer.
      const response = await client.send({
        method: 'GET',
        url: 'http://127.0.0.1:9/user?x=1',
        headers: {},
        wire: false,
      })
      expect(response.body.toString('utf8')).toBe('from behind the proxy: GET /user?x=1')
    } finally {
      await client.close()
      proxy.closeAllConnections()
      answering.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
    expect(connects).toEqual(['127.0.0.1:9'])
  })
})
