import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { captureExchange, type CapturedExchange } from '../../../../proxy/recording/recorder.js'

const BYTES = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz')

/** The response body captured from these chunks, under this Content-Length and cap. */
function capture(
  chunks: readonly Buffer[],
  contentLength: string | undefined,
  cap: number,
): CapturedExchange['response'] {
  let captured: CapturedExchange | undefined
  const req = {
    method: 'GET',
    url: '/x',
    httpVersion: '1.1',
    rawHeaders: [],
    headers: {},
  } as unknown as IncomingMessage
  const observer = captureExchange(req, { id: 1, maxBodyBytes: cap, onCaptured: (exchange) => (captured = exchange) })
  observer.onResponseHead?.({
    status: 200,
    statusText: 'OK',
    rawHeaders: contentLength === undefined ? [] : ['Content-Length', contentLength],
  })
  // Each chunk a buffer of its own, as the forwarder's are (never written over: ForwardObserver).
  for (const chunk of chunks) observer.onResponseBody?.(Buffer.from(chunk))
  observer.onDone({ times: { start: 0, end: 1 }, upstreamPath: '/x' })
  return captured?.response
}

const split = (...at: number[]): Buffer[] => [0, ...at].map((from, i) => BYTES.subarray(from, [...at, BYTES.length][i]))

describe('captureExchange keeps the first bytes of a body', () => {
  it.each([
    { title: 'as declared, in one chunk', chunks: split(), length: '36', cap: 100, kept: BYTES, truncated: false },
    {
      title: 'as declared, in three chunks',
      chunks: split(10, 20),
      length: '36',
      cap: 100,
      kept: BYTES,
      truncated: false,
    },
    {
      title: 'without Content-Length',
      chunks: split(10, 20),
      length: undefined,
      cap: 100,
      kept: BYTES,
      truncated: false,
    },
    {
      title: 'cut short of its Content-Length',
      chunks: split(10, 20).slice(0, 2),
      length: '36',
      cap: 100,
      kept: BYTES.subarray(0, 20),
      truncated: false,
    },
    {
      title: 'longer than its Content-Length, across a chunk',
      chunks: split(10, 20),
      length: '15',
      cap: 100,
      kept: BYTES,
      truncated: false,
    },
    {
      title: 'past the cap',
      chunks: split(10, 20),
      length: '36',
      cap: 16,
      kept: BYTES.subarray(0, 16),
      truncated: true,
    },
    {
      title: 'past the cap, without Content-Length',
      chunks: split(10, 20),
      length: undefined,
      cap: 16,
      kept: BYTES.subarray(0, 16),
      truncated: true,
    },
  ])('$title', ({ chunks, length, cap, kept, truncated }) => {
    const body = capture(chunks, length, cap)?.body
    expect(body?.bytes.toString()).toBe(kept.toString())
    expect(body?.size).toBe(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
    expect(body?.truncated).toBe(truncated)
  })
})
