/**
 * Exchanges of the realistic mix (realistic-traffic.ts) as the forwarding thread captures them, for
 * the recording work measured without the network (recording-work.ts) and for profiling it.
 */
import type { CapturedExchange } from '../../proxy/recording/recorder.js'
import { createAnswers, realisticMix } from './realistic-traffic.js'

/** The `id`-th exchange of the mix (cycling), with a request id of its own and buffers of its own. */
export function createRealisticExchanges(authorization: string): (id: number) => CapturedExchange {
  const mix = realisticMix()
  const answer = createAnswers('http://127.0.0.1:8080')
  return (id) => {
    const chosen = mix[id % mix.length]!
    const found = answer(chosen.path, chosen.headers['if-modified-since'])!
    const body = found.body === undefined ? Buffer.alloc(0) : Buffer.from(found.body)
    const now = performance.now()
    const requestHeaders = [
      'host',
      '127.0.0.1:8080',
      'authorization',
      authorization,
      ...Object.entries(chosen.headers).flat(),
      'x-request-id',
      `req-${id}`,
    ]
    const rawHeaders = [
      ...(found.type === undefined ? [] : ['content-type', found.type, 'content-length', String(body.length)]),
      'last-modified',
      'Tue, 01 Mar 2011 08:00:00 GMT',
      'date',
      new Date().toUTCString(),
    ]
    return {
      id,
      startedAt: new Date(),
      method: 'GET',
      clientPath: chosen.path,
      upstreamPath: chosen.path,
      httpVersion: 'HTTP/1.1',
      requestHeaders,
      requestBody: { bytes: Buffer.alloc(0), size: 0, truncated: false },
      response: {
        status: found.status,
        statusText: found.status === 304 ? 'Not Modified' : 'OK',
        rawHeaders,
        body: { bytes: body, size: body.length, truncated: false },
      },
      times: { start: now, requestSent: now + 0.05, responseStart: now + 0.2, end: now + 0.25 },
    }
  }
}

/**
 * The same mix with no body ever read twice: each body gets leading whitespace of its own (JSON allows
 * it), so the recording thread's memos of texts never find one. What a client that never goes back to a
 * resource costs, beside the mix as clients read it.
 */
export function createFreshBodyExchanges(authorization: string): (id: number) => CapturedExchange {
  const exchange = createRealisticExchanges(authorization)
  return (id) => {
    const captured = exchange(id)
    const response = captured.response
    if (response === undefined || response.body.bytes.length === 0) return captured
    const bytes = Buffer.concat([Buffer.from(' '.repeat(1 + (id % 4096))), response.body.bytes])
    // Names at even places, values at odd ones: only the value after a content-length name changes.
    const rawHeaders = response.rawHeaders.map((value, i, all) =>
      i % 2 === 1 && all[i - 1]?.toLowerCase() === 'content-length' ? String(bytes.length) : value,
    )
    return { ...captured, response: { ...response, rawHeaders, body: { bytes, size: bytes.length, truncated: false } } }
  }
}
