/**
 * The recording proxy: a listener (HTTP or TLS, 127.0.0.1 unless `--host` says otherwise) → target
 * mapping → forwarder → recorder → pipeline (on the recording thread, which opens and writes the
 * recording).
 *
 * It never falls over on what a client sends: a head node cannot parse is answered 400 by the
 * listener's `clientError` handler, a request-target that cannot be mapped is answered 400 here,
 * and anything else that goes wrong with one request ends that request alone.
 */
import { once } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { createExchangePipeline, type PipelineStats } from '../recording/exchange-pipeline.js'
import { createForwarder } from './forwarder.js'
import type { ProxySettings } from './proxy-settings.js'
import { captureExchange } from '../recording/recorder.js'
import type { SecretScrubber } from '../recording/redaction.js'
import { problemText } from '../recording/recording-problems.js'
import { upstreamPathFor } from './target.js'

export interface ProxyOptions {
  /** What the command line asked for (proxy-settings.ts). */
  readonly settings: ProxySettings
  readonly redactor: SecretScrubber
  /** The PEM contents of `settings.listen`'s certificate and key: the listener serves TLS with them. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer }
  /** Live output: one or more lines (joined by newlines) per call, already redacted. */
  readonly print?: (lines: string) => void
  /** Lines about the proxy or its recording going wrong; `print` when not given. */
  readonly printProblem?: (line: string) => void
  /** How long `close` waits for exchanges in flight before cutting them. */
  readonly closeGraceMs?: number
}

export interface ProxyStats extends PipelineStats {
  /** Requests answered 400 by the proxy itself because they could not be forwarded (not recorded). */
  readonly rejected: number
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`, `http://[::1]:<port>` or `https://…`. */
  readonly url: string
  readonly stats: ProxyStats
  /** Stops accepting, lets exchanges in flight finish (or cuts them after the grace), flushes the recording. */
  close(): Promise<void>
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { settings } = options
  const target = new URL(settings.target)
  const print = options.print ?? (() => {})
  const printProblem = options.printProblem ?? print
  const pipeline = await createExchangePipeline({ settings, redactor: options.redactor, print, printProblem })
  const forwarder = createForwarder(target, settings.forward)
  let nextId = 1
  let inFlight = 0
  let rejected = 0
  let idle: (() => void) | undefined

  const settle = (): void => {
    inFlight -= 1
    if (inFlight === 0) idle?.()
  }
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, upstreamPath: string): void => {
    const observer = captureExchange(req, {
      id: nextId++,
      maxBodyBytes: settings.recording.maxBodyBytes,
      onCaptured: (exchange) => {
        pipeline.submit(exchange)
        settle()
      },
    })
    forwarder.forward({ req, res, upstreamPath, observer })
  }
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    inFlight += 1
    const mapped = upstreamPathFor(target, req.url ?? '/')
    if ('problem' in mapped) {
      rejected += 1
      // Said without the request-target itself: it may carry a token in its query.
      if (!settings.recording.quiet) print(`rejected ${req.method ?? '-'} request: ${mapped.problem} → 400`)
      answerBadRequest(res, `fitconform proxy: cannot forward this request: ${mapped.problem}\n`)
      settle()
      return
    }
    // Backpressure: while the recording thread catches up, a new request waits before it is forwarded.
    const room = pipeline.waitForRoom()
    if (room === undefined) forward(req, res, mapped.path)
    else void room.then(() => forward(req, res, mapped.path))
  }

  const server =
    options.tls === undefined
      ? http.createServer(onRequest)
      : https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
  server.keepAliveTimeout = 5000
  server.on('clientError', (_err, socket: Duplex & { _httpMessage?: http.ServerResponse | null }) => {
    // A head node's parser refused (or a socket error before one): that connection alone ends. As in
    // node's own default handler, the 400 is written only when no response is under way on it
    // (a pipelined request behind a bad one), so no response is ever corrupted by it.
    const answering = socket._httpMessage?.headersSent === true
    if (socket.writable && !answering)
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
    else socket.destroy()
  })
  const { host } = settings.listen
  try {
    server.listen(settings.listen.port, host)
    await once(server, 'listening')
  } catch (err) {
    await pipeline.close()
    await forwarder.close()
    throw err
  }
  // After listening, a server error (e.g. EMFILE on accept) must not end the process: say it, keep serving.
  server.on('error', (err: NodeJS.ErrnoException) =>
    printProblem(
      problemText({
        code: 'E_LISTENER',
        kind: 'error',
        message: `the proxy's listener: ${err.code ?? err.name}: ${err.message}`,
        hint: 'the proxy keeps serving; if it repeats (EMFILE: too many open files), raise the limit with ulimit -n',
      }),
    ),
  )
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    get stats() {
      return { ...pipeline.stats, rejected }
    },
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

/** The proxy's own 400, on a connection it then closes: the rest of such a request is not worth reading. */
function answerBadRequest(res: http.ServerResponse, body: string): void {
  res.shouldKeepAlive = false
  res.writeHead(400, 'Bad Request', {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
  res.end(body)
}
