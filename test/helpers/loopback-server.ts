import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'

export interface LoopbackServer {
  readonly url: string
  /** Every request the server saw, in order: "METHOD /path?query". */
  readonly requests: string[]
  close(): Promise<void>
}

/**
 * The entry point every run reads first (the preflight: `GET /user` with the main token must answer
 * 2xx), so that a server built to misbehave elsewhere gets as far as its misbehaviour. True when it answered.
 */
export function answerUserEntryPoint(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== 'GET' || request.url !== '/user') return false
  response.writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' }).end('{"userID":1}')
  return true
}

/** A small real server on 127.0.0.1 for tests that need a server to misbehave in one precise way. */
export async function startLoopbackServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    handler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A loopback server for the test that calls this, closed when that test ends, passed or failed. */
export async function startServerForTest(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handler)
  onTestFinished(() => server.close())
  return server
}
