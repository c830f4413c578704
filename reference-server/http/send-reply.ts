// Puts a Reply on the wire: the mode's extra headers, HEAD, Content-Length or chunking, Date.
import { createHash, randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { ServerContext } from '../call.js'
import { endWithRawBytes } from '../faults/faults.js'
import { formatHttpDate } from './http-date.js'
import type { Reply } from './reply.js'

export function sendReply(res: ServerResponse, reply: Reply, method: string, server: ServerContext): void {
  const shaped =
    method === 'HEAD' ? withoutBody(withModeHeaders(reply, server), server) : withModeHeaders(reply, server)
  res.statusCode = shaped.status
  // From the server's clock, so that a test clock (ReferenceServerOptions.now) is seen everywhere.
  res.setHeader('Date', formatHttpDate(server.now()))
  for (const [name, value] of Object.entries(shaped.headers)) res.setHeader(name, value)
  const { body, rawAfterEnd } = shaped
  if (body && !server.behaviour.chunked) res.setHeader('Content-Length', body.length)
  if (rawAfterEnd) return endWithRawBytes(res, body, rawAfterEnd)
  // Writing before end() makes Node send Transfer-Encoding: chunked instead of Content-Length.
  if (body && server.behaviour.chunked) res.write(body)
  res.end(server.behaviour.chunked ? undefined : body)
}

/**
 * §4 endpoint 9: HEAD answers with GET's headers, Content-Length included (the byte length of the
 * body GET would send, even in chunked mode), and no body.
 */
function withoutBody(reply: Reply, server: ServerContext): Reply {
  const { faults } = server
  const { body, headContentLength, ...rest } = reply
  if (!body) return rest
  const headers: Record<string, string> = {
    ...reply.headers,
    'Content-Length': String(
      (headContentLength ?? body.length) +
        (faults.is('head-wrong-content-length') ? 10 : 0) -
        (faults.is('head-length-short-for-large-body') && body.length > 65_536 ? 1 : 0),
    ),
  }
  if (faults.is('head-no-content-type')) delete headers['Content-Type']
  if (faults.is('no-last-modified-on-head')) delete headers['Last-Modified']
  if (faults.is('head-last-modified-now') && headers['Last-Modified'] !== undefined)
    headers['Last-Modified'] = formatHttpDate(server.now())
  if (faults.is('head-with-body')) return { ...rest, headers, rawAfterEnd: body }
  return { ...rest, headers }
}

/** other-choices: headers a real service might add, which clients must not trip over. */
function withModeHeaders(reply: Reply, server: ServerContext): Reply {
  if (!server.behaviour.extraHeaders) return reply
  const headers: Record<string, string> = { ...reply.headers, 'X-Request-Id': randomUUID(), 'Cache-Control': 'private' }
  if (reply.body) headers.ETag = `"${createHash('sha1').update(reply.body).digest('base64url').slice(0, 20)}"`
  return { ...reply, headers }
}
