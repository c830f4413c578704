/**
 * Child-process entry: the reference server in a process of its own, so that it does not share the
 * benchmark's (or the runner's) event loop. Prints one JSON line `{ url, tokens }` once listening and
 * stops on SIGTERM/SIGINT or when stdin closes (the parent died).
 *
 *   node dist/bench/reference-server-process.js [--latency-ms 20]
 *
 * `--latency-ms` models a remote server: every request waits that long before the server sees it.
 */
import http from 'node:http'
import { parseArgs } from 'node:util'
import { startReferenceServer } from '../reference-server/index.js'

const { values } = parseArgs({ options: { 'latency-ms': { type: 'string', default: '0' } } })
const latencyMs = Number(values['latency-ms'])
if (latencyMs > 0) delayRequests(latencyMs)

const server = await startReferenceServer({ port: 0 })
process.stdout.write(JSON.stringify({ url: server.url, tokens: server.tokens }) + '\n')

let stopping = false
const stop = (): void => {
  if (stopping) return
  stopping = true
  void server.close().finally(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.stdin.on('end', stop).on('close', stop).resume()

/**
 * The reference server owns its http.Server, so the delay goes in front of every server's 'request'
 * event: the request waits, buffered, and the handler then runs as usual. No extra hop or socket.
 */
function delayRequests(ms: number): void {
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean
  http.Server.prototype.emit = function delayedEmit(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event !== 'request') return emit.call(this, event, ...args)
    setTimeout(() => emit.call(this, event, ...args), ms)
    return true
  }
}
