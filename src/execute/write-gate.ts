// While the exclusive scenarios run, the other scenarios' writes wait here. An exclusive
// scenario needs an account nothing of ours writes to from its first clock gap to its last check
// (docs/benchmarks.md): closing the gate lets the writes in flight finish, then holds every later
// write (a step's POST, PUT or DELETE, a cleanup deletion, a restore) until the gate opens again.
// Reads pass at any time: they change nothing an exclusive scenario relies on. A write held here
// is a wait like a clock wait: it is run parked, so its scenario's concurrency slot goes to others.
import type { HttpClient, OutgoingRequest, IncomingResponse } from './http/http-exchange.js'
import type { Park } from '../shared/worker-pool.js'

export interface WriteGate {
  /** Resolves once no write is in flight; from then on writes wait for open(). */
  close(): Promise<void>
  open(): void
  /** The client a non-exclusive scenario sends with: its writes go through the gate, parked while it is closed. */
  gated(client: HttpClient, park: Park): HttpClient
}

export function createWriteGate(): WriteGate {
  let closed = false
  let inFlight = 0
  let opened: Promise<void> = Promise.resolve()
  let openGate = (): void => undefined
  let drained: (() => void) | undefined

  const write = async (client: HttpClient, request: OutgoingRequest, park: Park): Promise<IncomingResponse> => {
    while (closed) await park(() => opened)
    inFlight++
    try {
      return await client.send(request)
    } finally {
      inFlight--
      if (inFlight === 0) drained?.()
    }
  }

  return {
    async close() {
      closed = true
      opened = new Promise((resolve) => (openGate = resolve))
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve))
      drained = undefined
    },
    open() {
      closed = false
      openGate()
    },
    gated(client, park) {
      return {
        send: (request) => (isRead(request.method) ? client.send(request) : write(client, request, park)),
        close: () => client.close(),
      }
    },
  }
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD'
}
