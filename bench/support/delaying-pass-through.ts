/**
 * A TCP pass-through that holds every chunk for `delayMs` in each direction, as a network with a
 * round trip of 2 × `delayMs` would (issue 30 point 3). Order is kept: every chunk of one direction
 * waits the same time, and timers of one duration fire in the order they were set. The TCP handshake
 * itself is not delayed (the kernel accepts on loopback), so a new connection costs no extra round
 * trip here, where a real network charges one: the figures are a lower bound for connection set-up.
 */
import { once } from 'node:events'
import net from 'node:net'

export interface DelayingPassThrough {
  readonly url: string
  close(): Promise<void>
}

export async function startDelayingPassThrough(options: {
  target: string
  delayMs: number
}): Promise<DelayingPassThrough> {
  const target = new URL(options.target)
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.setNoDelay(true)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    relay(client, upstream, options.delayMs)
    relay(upstream, client, options.delayMs)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Every chunk and the end of `from` reach `to` `delayMs` later. */
function relay(from: net.Socket, to: net.Socket, delayMs: number): void {
  from.on('data', (chunk: Buffer) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk)
    }, delayMs)
  })
  from.on('end', () => {
    setTimeout(() => {
      if (!to.destroyed) to.end()
    }, delayMs)
  })
}
