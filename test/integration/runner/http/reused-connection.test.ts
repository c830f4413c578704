import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpClient } from '../../../../src/execute/http/http-client.js'
import type { HttpClient } from '../../../../src/execute/http/http-exchange.js'
import { transportDiagnostic } from '../../../../src/execute/http/transport-error.js'
import { classifyTransportError } from '../../../../src/shared/transport-failure.js'

/*
 * A keep-alive connection the server closes just as the client writes its next request on it: the
 * server below does that deterministically, destroying a connection when a request arrives on it as
 * its second one (the first was answered with keep-alive). A read is sent once more on a fresh
 * connection; nothing else is.
 */

interface Seen {
  /** "connection#request-on-it METHOD /path", in arrival order: connections and requests counted from 1. */
  readonly requests: string[]
  readonly url: string
  close(): Promise<void>
}

type Behaviour = (request: IncomingMessage, response: ServerResponse, onConnection: number) => void

async function startServer(behaviour: Behaviour): Promise<Seen> {
  const requests: string[] = []
  const connections = new Map<Socket, { index: number; requests: number }>()
  const server = createServer((request, response) => {
    const connection = connections.get(request.socket)!
    connection.requests++
    requests.push(`${connection.index}#${connection.requests} ${request.method} ${request.url}`)
    // Read the body (a POST's) before answering or closing.
    request.resume()
    request.on('end', () => behaviour(request, response, connection.requests))
  })
  server.on('connection', (socket: Socket) => connections.set(socket, { index: connections.size + 1, requests: 0 }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    requests,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function answer(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok')
}

/** The second request on a connection finds it closed; every other request is answered. */
const closesTheReusedConnection: Behaviour = (request, response, onConnection) => {
  if (onConnection === 2) request.socket.destroy()
  else answer(response)
}

const servers: Seen[] = []
const clients: HttpClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function setUp(behaviour: Behaviour): Promise<{ server: Seen; client: HttpClient }> {
  const server = await startServer(behaviour)
  servers.push(server)
  const client = createHttpClient({ timeoutMs: 5_000, insecure: false })
  clients.push(client)
  return { server, client }
}

/**
 * After an answer, undici checks an idle socket on the event loop's next turn before it writes on it
 * again; a request sent before that would open a second connection instead of reusing the first.
 */
function nextTurns(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

async function failureOf(sending: Promise<unknown>): Promise<unknown> {
  return sending.then(
    () => {
      throw new Error('expected the request to fail')
    },
    (error: unknown) => error,
  )
}

describe('a request written on a reused keep-alive connection that the server closed', () => {
  it.each(['GET', 'HEAD'])('%s is sent once more on a fresh connection, and the answer says so', async (method) => {
    const { server, client } = await setUp(closesTheReusedConnection)
    const url = `${server.url}/fitnessActivities/7`
    expect((await client.send({ method: 'GET', url: `${server.url}/user`, headers: {}, wire: false })).status).toBe(200)
    await nextTurns()
    const response = await client.send({ method, url, headers: {}, wire: false })
    expect(response.status).toBe(200)
    expect(response.body.toString('utf8')).toBe(method === 'HEAD' ? '' : 'ok')
    expect(response.resent).toMatch(
      /^sent a second time, on a fresh connection: the keep-alive connection it was first sent on \(after 1 earlier request\) closed before any byte of the answer \(.*(UND_ERR_SOCKET|ECONNRESET)\)$/,
    )
    expect(server.requests).toEqual([
      '1#1 GET /user',
      `1#2 ${method} /fitnessActivities/7`,
      `2#1 ${method} /fitnessActivities/7`,
    ])
  })

  it.each(['POST', 'PUT', 'DELETE'])('%s is not sent again: a transport error, blamed as before', async (method) => {
    const { server, client } = await setUp(closesTheReusedConnection)
    expect((await client.send({ method: 'GET', url: `${server.url}/user`, headers: {}, wire: false })).status).toBe(200)
    await nextTurns()
    const error = await failureOf(
      client.send({ method, url: `${server.url}/fitnessActivities/7`, headers: {}, body: '{}', wire: false }),
    )
    expect(classifyTransportError(error).failure).toBe('reset')
    const diagnostic = transportDiagnostic(error, `${server.url}/fitnessActivities/7`, 5_000)
    expect(diagnostic.code).toBe('E_TRANSPORT')
    expect(diagnostic.message).not.toMatch(/second/)
    expect(server.requests).toEqual(['1#1 GET /user', `1#2 ${method} /fitnessActivities/7`])
  })

  it('a read on a fresh connection that closes is not sent again', async () => {
    const { server, client } = await setUp((request) => request.socket.destroy())
    const error = await failureOf(client.send({ method: 'GET', url: `${server.url}/user`, headers: {}, wire: false }))
    expect(classifyTransportError(error).failure).toBe('reset')
    expect(server.requests).toEqual(['1#1 GET /user'])
  })

  it('a server that closes every later connection unanswered gets one resend, then the transport error', async () => {
    let answered = 0
    const { server, client } = await setUp((request, response) => {
      if (answered++ === 0) answer(response)
      else request.socket.destroy()
    })
    expect((await client.send({ method: 'GET', url: `${server.url}/user`, headers: {}, wire: false })).status).toBe(200)
    await nextTurns()
    const url = `${server.url}/fitnessActivities/7`
    const error = await failureOf(client.send({ method: 'GET', url, headers: {}, wire: false }))
    expect(classifyTransportError(error).failure).toBe('reset')
    const diagnostic = transportDiagnostic(error, url, 5_000)
    expect(diagnostic.code).toBe('E_TRANSPORT')
    expect(diagnostic.message).toMatch(
      /^the exchange with .*\/fitnessActivities\/7 broke off: .*; sent a second time, on a fresh connection: the keep-alive connection it was first sent on \(after 1 earlier request\) closed before any byte of the answer/,
    )
    expect(server.requests).toEqual(['1#1 GET /user', '1#2 GET /fitnessActivities/7', '2#1 GET /fitnessActivities/7'])
  })

  it.each([
    { part: 'half a body', bytes: 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\nhalf' },
    { part: 'half the headers', bytes: 'HTTP/1.1 200 OK\r\ncontent-type: text/pl' },
    { part: 'the first byte of the status line', bytes: 'H' },
  ])('a read answered with $part before the close is not sent again', async ({ bytes }) => {
    const { server, client } = await setUp((request, response, onConnection) => {
      if (onConnection === 1) answer(response)
      else request.socket.end(bytes)
    })
    expect((await client.send({ method: 'GET', url: `${server.url}/user`, headers: {}, wire: false })).status).toBe(200)
    await nextTurns()
    const url = `${server.url}/fitnessActivities/7`
    const error = await failureOf(client.send({ method: 'GET', url, headers: {}, wire: false }))
    expect(transportDiagnostic(error, url, 5_000).message).not.toMatch(/second/)
    expect(server.requests).toEqual(['1#1 GET /user', '1#2 GET /fitnessActivities/7'])
  })
})
