// A server closes an idle keep-alive connection when it likes (the reference server after 5 s, nginx after
// its keepalive_timeout); a client may write its next request on that socket before the close reaches it,
// and the request fails with "other side closed" although the server never saw it (undici issue 3492;
// RFC 9112 §9.3.1 lets a client retry an idempotent request then, once). undici does not retry it, and its
// retry interceptor cannot tell a reused socket from a fresh one, or an answer begun from none. This file
// can: it watches, through undici's diagnostics channels, which socket each of our requests was written on.
import { subscribe } from 'node:diagnostics_channel'
import type { Socket } from 'node:net'

/** Where one request was written: filled in when undici writes its head. */
export interface SocketWatch {
  socket?: Socket
  /** Requests written on that socket before this one. */
  earlierRequests: number
  /** The socket's bytesRead (plain text for TLS) when this request was written: the earlier answers, read to their end. */
  bytesReadBefore: number
}

/**
 * Sent once more, on a fresh connection, only when resending cannot change what the server holds: GET and
 * HEAD are safe (RFC 9110 §9.2.1). PUT and DELETE are idempotent by RFC 9110 §9.2.2, but the spec does not
 * say so of its edits and deletes (§4 rows 6–8), and a repeat that did reach the server would be judged in
 * the first one's place: a second DELETE answers what a missing activity gets (§7 rule 6, "not shown")
 * instead of 204, a second PUT moves Last-Modified (§4 row 7) that later conditional reads compare.
 */
const RESENDABLE_METHODS = new Set(['GET', 'HEAD'])

/** A connection that ended: closed by the peer (undici's "other side closed" / "closed"), reset, or a write into a closed one. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])

const watches = new WeakMap<object, SocketWatch>()
const requestsOn = new WeakMap<Socket, number>()
/** The watch of the request the current dispatch call is creating (undici creates it synchronously). */
let claiming: SocketWatch | undefined
let subscribed = false

function subscribeOnce(): void {
  if (subscribed) return
  subscribed = true
  subscribe('undici:request:create', (message) => {
    if (!claiming) return
    watches.set((message as { request: object }).request, claiming)
    claiming = undefined
  })
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket: Socket }
    const earlier = requestsOn.get(socket) ?? 0
    requestsOn.set(socket, earlier + 1)
    const watch = watches.get(request)
    if (!watch) return
    watch.socket = socket
    watch.earlierRequests = earlier
    watch.bytesReadBefore = socket.bytesRead
  })
}

/**
 * Runs one undici dispatch call; `watch` learns where the request it creates is written. A request undici
 * queues for later (a pool at its connection limit) is not watched, and so never resent.
 */
export function watchSocket(watch: SocketWatch, dispatch: () => void): void {
  subscribeOnce()
  claiming = watch
  try {
    dispatch()
  } finally {
    claiming = undefined
  }
}

/**
 * Why the failed request may be sent once more on a fresh connection, or undefined: only a GET or HEAD,
 * written on a socket that had carried a request before, that closed or reset before a single byte of the
 * answer came back.
 */
export function resendReason(method: string, watch: SocketWatch, error: unknown): string | undefined {
  const { socket } = watch
  if (!RESENDABLE_METHODS.has(method) || !socket || watch.earlierRequests === 0) return undefined
  if (socket.bytesRead !== watch.bytesReadBefore) return undefined
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string' || !CLOSED_CODES.has(code)) return undefined
  const said = error instanceof Error ? `${error.message}, ` : ''
  return `sent a second time, on a fresh connection: the keep-alive connection it was first sent on (after ${watch.earlierRequests} earlier request${watch.earlierRequests === 1 ? '' : 's'}) closed before any byte of the answer (${said}${code})`
}

const resentBeforeFailing = new WeakMap<object, string>()

/** Marks the error of the second send, so the diagnostic says the request had been sent twice. */
export function noteResendFailed(error: unknown, reason: string): void {
  if (typeof error === 'object' && error !== null) resentBeforeFailing.set(error, reason)
}

/** Set for the error of a second send: why it was sent a second time. */
export function resendBefore(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? resentBeforeFailing.get(error) : undefined
}
