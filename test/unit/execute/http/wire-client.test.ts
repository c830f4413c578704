import { describe, expect, it } from 'vitest'
import { parseRawResponse } from '../../../../src/execute/http/wire-client.js'

const raw = (text: string): Buffer => Buffer.from(text, 'latin1')

describe('parseRawResponse', () => {
  it.each([
    {
      case: 'keeps the bytes after a HEAD response as its body',
      method: 'HEAD',
      text: 'HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{"stray":true}',
      status: 200,
      body: '{"stray":true}',
    },
    {
      case: 'keeps chunked bytes after a HEAD response undecoded',
      method: 'HEAD',
      text: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      status: 200,
      body: '5\r\nhello\r\n0\r\n\r\n',
    },
    {
      case: 'decodes a chunked 200 body',
      method: 'GET',
      text: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\nA\r\n0123456789\r\n0\r\n\r\n',
      status: 200,
      body: 'hello world0123456789',
    },
    {
      case: 'decodes a chunked body whose encoding list ends in chunked',
      method: 'GET',
      text: 'HTTP/1.1 200 OK\r\ntransfer-encoding: identity, Chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
      status: 200,
      body: 'hi',
    },
    {
      case: 'keeps stray bytes after a 304',
      method: 'GET',
      text: 'HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      status: 304,
      body: '3\r\nabc\r\n0\r\n\r\n',
    },
    {
      case: 'keeps stray bytes after a 204',
      method: 'POST',
      text: 'HTTP/1.1 204 No Content\r\n\r\nxyz',
      status: 204,
      body: 'xyz',
    },
    {
      case: 'reads an empty body as no bytes',
      method: 'HEAD',
      text: 'HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n',
      status: 200,
      body: '',
    },
    {
      case: 'reads an HTTP/1.0 status line',
      method: 'GET',
      text: 'HTTP/1.0 404 Not Found\r\n\r\nnope',
      status: 404,
      body: 'nope',
    },
  ])('$case', ({ method, text, status, body }) => {
    const response = parseRawResponse(raw(text), method)
    expect(response.status).toBe(status)
    expect(response.body.toString('latin1')).toBe(body)
  })

  it('keeps binary body bytes exactly', () => {
    const bytes = Buffer.from([0, 255, 13, 10, 13, 10, 128])
    const response = parseRawResponse(Buffer.concat([raw('HTTP/1.1 200 OK\r\n\r\n'), bytes]), 'GET')
    expect(response.body.equals(bytes)).toBe(true)
  })

  it('lower-cases header names and joins repeated headers', () => {
    const response = parseRawResponse(
      raw(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nVary: Accept\r\nvary: Authorization\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nX-Empty:\r\nnot a header\r\n\r\n',
      ),
      'GET',
    )
    expect(response.headers).toEqual({
      'content-type': 'application/json',
      vary: 'Accept, Authorization',
      'set-cookie': 'a=1\nb=2',
      'x-empty': '',
    })
  })

  it.each([
    { text: 'HTP/1.1 200 OK\r\n\r\n', message: 'not an HTTP/1.1 status line: "HTP/1.1 200 OK"' },
    { text: 'HTTP/2 200\r\n\r\n', message: 'not an HTTP/1.1 status line: "HTTP/2 200"' },
    { text: 'HTTP/1.1 OK\r\n\r\n', message: 'not an HTTP/1.1 status line: "HTTP/1.1 OK"' },
    { text: 'garbage', message: 'the server closed the connection before the end of the response headers' },
    {
      text: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n',
      message: 'the server closed the connection before the end of the response headers',
    },
  ])('refuses $text: $message', ({ text, message }) => {
    expect(() => parseRawResponse(raw(text), 'GET')).toThrow(
      expect.objectContaining({ name: 'InvalidResponseError', message }),
    )
  })
})
