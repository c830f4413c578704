/**
 * The "bare pass-through" of issue 15: a plain node:http keep-alive forwarder that pipes the request
 * and the response and records nothing. It is the ceiling a recording proxy is measured against, so
 * it does the least a correct forwarder must: hop-by-hop headers are left to node (it sets its own
 * Connection and Transfer-Encoding), the upstream's status and headers are copied as they came.
 */
import http from 'node:http'

/** A request handler forwarding everything to `target` over one keep-alive agent. */
export function createBareForwarder(target: URL): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
  return (req, res) => {
    const headers = { ...req.headers, host: target.host }
    delete headers.connection
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const out = { ...answer.headers }
        delete out.connection
        delete out['keep-alive']
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (res.headersSent) res.destroy()
      else res.writeHead(502).end()
    })
    req.pipe(upstream)
  }
}
