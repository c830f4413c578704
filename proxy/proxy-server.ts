/**
 * The recording proxy: a listener on 127.0.0.1 (HTTP or TLS) → forwarder → recorder → pipeline (on
 * the recording thread, which opens and writes the recording).
 */
import { once } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { createExchangePipeline, type PipelineStats } from './exchange-pipeline.js'
import { createForwarder } from './forwarder.js'
import { DEFAULT_MAX_BODY_BYTES } from './proxy-defaults.js'
import { captureExchange } from './recorder.js'
import type { Redactor } from './redaction.js'

export interface ProxyOptions {
  readonly target: URL
  /** 0 (default): any free port. */
  readonly port?: number
  /** NDJSON recording file (`--record`); nothing is written without it. */
  readonly record?: string
  /** Rotate the recording past this size (`--max-bytes`). */
  readonly maxBytes?: number
  /** Bodies are recorded up to this many bytes (`--max-body-bytes`). */
  readonly maxBodyBytes?: number
  readonly strict?: boolean
  /** Upstream timeout in milliseconds (`--timeout`). */
  readonly timeoutMs?: number
  /** Accept a self-signed upstream certificate (`--insecure`). */
  readonly insecure?: boolean
  /** Listen with TLS (`--tls-cert`, `--tls-key`), PEM contents. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer }
  readonly redactor: Redactor
  /** Live output, one line per call, already redacted. */
  readonly print?: (line: string) => void
  /** How long `close` waits for exchanges in flight before cutting them. */
  readonly closeGraceMs?: number
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>` or `https://…`. */
  readonly url: string
  readonly stats: PipelineStats
  /** Stops accepting, lets exchanges in flight finish (or cuts them after the grace), flushes the recording. */
  close(): Promise<void>
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const pipeline = await createExchangePipeline({
    target: options.target,
    redactor: options.redactor,
    record: options.record,
    maxBytes: options.maxBytes,
    strict: options.strict === true,
    maxBodyBytes,
    print: options.print ?? (() => {}),
  })
  const forwarder = createForwarder({ target: options.target, timeoutMs: options.timeoutMs, insecure: options.insecure })
  let nextId = 1
  let inFlight = 0
  let idle: (() => void) | undefined

  const forward = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const observer = captureExchange(req, {
      id: nextId++,
      maxBodyBytes,
      onCaptured: (exchange) => {
        inFlight -= 1
        pipeline.submit(exchange)
        if (inFlight === 0) idle?.()
      },
    })
    forwarder.forward(req, res, observer)
  }
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    inFlight += 1
    // Backpressure: while the recording thread catches up, a new request waits before it is forwarded.
    const room = pipeline.waitForRoom()
    if (room === undefined) forward(req, res)
    else void room.then(() => forward(req, res))
  }

  const server = options.tls === undefined ? http.createServer(onRequest) : https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
  server.keepAliveTimeout = 5000
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
    else socket.destroy()
  })
  try {
    server.listen(options.port ?? 0, '127.0.0.1')
    await once(server, 'listening')
  } catch (err) {
    await pipeline.close()
    await forwarder.close()
    throw err
  }
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    stats: pipeline.stats,
    close: () => {
      closing ??= (async () => {
        const closed = new Promise((resolve) => server.close(resolve))
        server.closeIdleConnections()
        if (inFlight > 0) {
          const settled = new Promise<void>((resolve) => {
            idle = resolve
          })
          const grace = new Promise((resolve) => setTimeout(resolve, options.closeGraceMs ?? 5000).unref())
          await Promise.race([settled, grace])
        }
        server.closeAllConnections()
        await closed
        await pipeline.close()
        await forwarder.close()
      })()
      return closing
    },
  }
}
