import { describe, expect, it } from 'vitest'
import { parseRawResponse } from '../../../../src/execute/http/wire-client.js'

const raw = (text: string) => Buffer.from(text, 'latin1')

describe('parseRawResponse edge cases', () => {
  it('skips interim 1xx responses and judges the final one', () => {
    const parsed = parseRawResponse(
      raw('HTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\nHTTP/1.1 204 No Content\r\ndate: x\r\n\r\n'),
      'DELETE',
    )
    expect(parsed.status).toBe(204)
    expect(parsed.body.length).toBe(0)
  })

  it('keeps bytes a server sends after the last chunk, so stray bytes stay visible', () => {
    const parsed = parseRawResponse(
      raw('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\nSTRAY'),
      'GET',
    )
    expect(parsed.body.toString()).toBe('{}STRAY')
  })

  it('reads trailers after the last chunk without counting them as body', () => {
    const parsed = parseRawResponse(
      raw('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nx-checksum: 1\r\n\r\n'),
      'GET',
    )
    expect(parsed.body.toString()).toBe('{}')
  })
})
