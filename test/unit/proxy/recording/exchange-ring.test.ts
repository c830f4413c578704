import { describe, expect, it } from 'vitest'
import { createRingMemory, RingReader, RingWriter } from '../../../../proxy/recording/exchange-ring.js'
import type { CapturedExchange } from '../../../../proxy/recording/recorder.js'

/** An exchange whose every field depends on `id`, with a response body of `size` bytes. */
function exchange(id: number, size: number): CapturedExchange {
  const body = Buffer.alloc(size, id % 251)
  return {
    id,
    startedAt: new Date(1_700_000_000_000 + id),
    method: id % 2 === 0 ? 'GET' : 'POST',
    clientPath: `/fitnessActivities?page=${id}&q=é`,
    upstreamPath: `/base/fitnessActivities?page=${id}&q=é`,
    httpVersion: 'HTTP/1.1',
    requestHeaders: ['Host', 'x', 'Authorization', `Bearer token-${id}`, 'X-Latin1', 'caf\u00e9'],
    requestBody: { bytes: Buffer.from(`{"n":${id}}`), size: 8, truncated: id % 3 === 0 },
    response: {
      status: 200 + (id % 5),
      statusText: id % 4 === 0 ? '' : 'OK',
      rawHeaders: ['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'],
      body: { bytes: body, size: size + id, truncated: false },
    },
    times: {
      start: id + 0.5,
      requestSent: id % 2 === 0 ? undefined : id + 0.75,
      responseStart: id + 1,
      end: id + 2.25,
    },
  }
}

/** The exchange with its bodies as base64 text: quick to compare (deep equality walks a Buffer byte by byte). */
function comparable(each: CapturedExchange | undefined): unknown {
  if (each === undefined) return undefined
  const body = (captured: CapturedExchange['requestBody']): unknown => ({
    ...captured,
    bytes: captured.bytes.toString('base64'),
  })
  return {
    ...each,
    requestBody: body(each.requestBody),
    response: each.response && { ...each.response, body: body(each.response.body) },
  }
}

describe('the exchange ring', () => {
  it('gives back every part of an exchange, the optional ones included', () => {
    const memory = createRingMemory(64 * 1024)
    const writer = new RingWriter(memory)
    const reader = new RingReader(memory)
    const failed: CapturedExchange = {
      ...exchange(7, 0),
      response: undefined,
      generated: {
        status: 502,
        statusText: 'Bad Gateway',
        body: 'fitconform proxy: upstream unreachable (ECONNREFUSED)\n',
      },
      error: { code: 'E_CONNECT', message: 'upstream unreachable (ECONNREFUSED) ✗', afterResponseStart: false },
    }
    for (const each of [exchange(1, 100), failed, exchange(2, 0)]) {
      expect(writer.tryAppend(each)).toBe(true)
      expect(reader.next()).toEqual(each)
    }
    expect(reader.next()).toBeUndefined()
  })

  it('keeps order and contents across many wraps of a small ring, and refuses what does not fit until it is read', () => {
    const memory = createRingMemory(16 * 1024)
    const writer = new RingWriter(memory)
    const reader = new RingReader(memory)
    const sizes = [10, 3000, 700, 5000, 1, 2500, 0, 4000]
    let written = 0
    let read = 0
    let refused = 0
    for (let step = 0; step < 600; step += 1) {
      const next = exchange(written + 1, sizes[written % sizes.length] as number)
      if (writer.tryAppend(next)) written += 1
      else refused += 1
      // Read more slowly than written, so that the ring fills, wraps and refuses.
      if (step % 3 !== 0) {
        const got = reader.next()
        if (got !== undefined) {
          read += 1
          expect(comparable(got)).toEqual(comparable(exchange(read, sizes[(read - 1) % sizes.length] as number)))
        }
      }
    }
    for (let got = reader.next(); got !== undefined; got = reader.next()) {
      read += 1
      expect(comparable(got)).toEqual(comparable(exchange(read, sizes[(read - 1) % sizes.length] as number)))
    }
    expect(read).toBe(written)
    expect(refused).toBeGreaterThan(0)
    expect(written).toBeGreaterThan(100)
  })

  it('always takes an exchange of up to half the ring once it is empty, wherever its offsets stand', () => {
    const memory = createRingMemory(16 * 1024)
    const writer = new RingWriter(memory)
    const reader = new RingReader(memory)
    const large = exchange(1, 7000)
    expect(writer.fitsEver(large)).toBe(true)
    expect(writer.fitsEver(exchange(1, 9000))).toBe(false)
    for (let offset = 1; offset < 40; offset += 1) {
      // Move the offsets along, then empty the ring.
      expect(writer.tryAppend(exchange(offset, offset * 97))).toBe(true)
      expect(reader.next()?.id).toBe(offset)
      expect(writer.tryAppend(large)).toBe(true)
      expect(comparable(reader.next())).toEqual(comparable(large))
    }
  })
})
