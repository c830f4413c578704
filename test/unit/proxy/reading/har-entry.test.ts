import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeBody } from '../../../../proxy/recording/body-decoding.js'
import { toExchangeEntry, type EntryInput } from '../../../../proxy/reading/har-entry.js'
import type { CapturedExchange } from '../../../../proxy/recording/recorder.js'
import { SecretScrubber } from '../../../../proxy/recording/redaction.js'
import { stableStringify } from '../../../../proxy/recording/stable-json.js'

const times = { start: 10, requestSent: 11, responseStart: 12, end: 13 }
const body = (bytes: Buffer, truncated = false) => ({ bytes, size: bytes.length, truncated })

/** Exchanges that use every optional member of an entry between them. */
const exchanges: Record<string, CapturedExchange> = {
  'a JSON request and a gzip response': {
    id: 1,
    startedAt: new Date(0),
    method: 'POST',
    clientPath: '/fitnessActivities?x=1',
    upstreamPath: '/fitnessActivities?x=1',
    httpVersion: 'HTTP/1.1',
    requestHeaders: ['Content-Type', 'application/json', 'Cookie', 'a=b', 'Authorization', 'Bearer t-123456'],
    requestBody: body(Buffer.from('{"notes":"x","path":[{"latitude":1}]}')),
    response: {
      status: 201,
      statusText: 'Created',
      rawHeaders: ['Content-Encoding', 'gzip', 'Location', '/x/1', 'Set-Cookie', 's=1; Path=/'],
      body: body(gzipSync('{"a":1}')),
    },
    times,
  },
  'a binary, truncated request and a failed exchange the proxy answered': {
    id: 2,
    startedAt: new Date(0),
    method: 'PUT',
    clientPath: '/x',
    upstreamPath: '/x',
    httpVersion: 'HTTP/1.1',
    requestHeaders: [],
    requestBody: body(Buffer.from([0, 1, 2, 3]), true),
    generated: { status: 502, statusText: 'Bad Gateway', body: 'fitconform proxy: upstream unreachable\n' },
    error: { code: 'E_CONNECT', message: 'upstream unreachable (ECONNREFUSED)', afterResponseStart: false },
    times,
  },
  'a response body that cannot be decoded': {
    id: 3,
    startedAt: new Date(0),
    method: 'GET',
    clientPath: '/x',
    upstreamPath: '/x',
    httpVersion: 'HTTP/1.1',
    requestHeaders: [],
    requestBody: body(Buffer.alloc(0)),
    response: {
      status: 200,
      statusText: 'OK',
      rawHeaders: ['Content-Encoding', 'gzip'],
      body: body(Buffer.from('not gzip')),
    },
    times,
  },
}

describe('toExchangeEntry', () => {
  it.each(Object.entries(exchanges))(
    'builds every object of the entry with its keys in the order they are written: %s',
    async (_title, exchange) => {
      const redactor = new SecretScrubber({ bodyPaths: ['path[*].latitude'] })
      const encoding = (raw: readonly string[]) =>
        raw[raw.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'content-encoding') + 1]
      const input: EntryInput = {
        exchange,
        url: new URL(`http://127.0.0.1:9${exchange.upstreamPath}`),
        requestBody: await decodeBody(exchange.requestBody, undefined, 1024),
        responseBody:
          exchange.response === undefined
            ? undefined
            : await decodeBody(exchange.response.body, encoding(exchange.response.rawHeaders), 1024),
        endpoint: { method: exchange.method, path: '/x', row: 1 },
        findings: [{ kind: 'violation', side: 'response', rule: 'RULE', pointer: '/a', message: 'm' }],
        tokenId: 'tok_1',
      }
      const entry = toExchangeEntry(input, redactor)
      // stable-json.ts copies only objects out of order: the two agree when none needed sorting.
      expect(JSON.stringify(entry)).toBe(stableStringify(entry))
    },
  )
})
