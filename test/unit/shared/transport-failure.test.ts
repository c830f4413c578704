import { describe, expect, it } from 'vitest'
import {
  BodyTooLargeError,
  classifyTransportError,
  InvalidResponseError,
  ResponseTimeoutError,
} from '../../../src/shared/transport-failure.js'

const coded = (code: string): Error => Object.assign(new Error(code), { code })

describe('classifyTransportError', () => {
  it.each([
    { error: coded('ECONNREFUSED'), failure: 'connect', code: 'ECONNREFUSED' },
    { error: coded('UND_ERR_CONNECT_TIMEOUT'), failure: 'connect', code: 'UND_ERR_CONNECT_TIMEOUT' },
    { error: coded('UND_ERR_HEADERS_TIMEOUT'), failure: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' },
    { error: new DOMException('signal timed out', 'TimeoutError'), failure: 'timeout', code: 'TimeoutError' },
    { error: new TypeError('fetch failed', { cause: coded('ENOTFOUND') }), failure: 'connect', code: 'ENOTFOUND' },
    { error: coded('DEPTH_ZERO_SELF_SIGNED_CERT'), failure: 'tls', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    { error: coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), failure: 'tls', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
    { error: coded('ECONNRESET'), failure: 'reset', code: 'ECONNRESET' },
    { error: coded('HPE_INVALID_CONSTANT'), failure: 'invalid-response', code: 'HPE_INVALID_CONSTANT' },
    {
      error: new InvalidResponseError('not an HTTP/1.1 status line'),
      failure: 'invalid-response',
      code: 'E_INVALID_RESPONSE',
    },
    { error: new ResponseTimeoutError('no response within 10 ms'), failure: 'timeout', code: 'E_RESPONSE_TIMEOUT' },
    { error: new BodyTooLargeError('http://127.0.0.1/x', 10), failure: 'body-too-large', code: 'E_BODY_TOO_LARGE' },
    { error: new Error('something else'), failure: 'other', code: undefined },
    { error: 'a string', failure: 'other', code: undefined },
  ])('$error is a $failure failure', ({ error, failure, code }) => {
    expect(classifyTransportError(error)).toEqual({ failure, code })
  })
})
