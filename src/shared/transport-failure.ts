/**
 * What can go wrong below HTTP, named once for the runner's two clients (undici and the raw-socket
 * wire client) and the proxy's forwarder: the errors our own code throws, and which kind of failure
 * an error from undici, Node's sockets or TLS is. Each caller words the kind for its own user.
 */

export type TransportFailure =
  /** Nothing answered: refused, no such host, no route, or no connection within the timeout. */
  | 'connect'
  /** The server's certificate is not trusted. */
  | 'tls'
  /** Connected, but no complete response in time. */
  | 'timeout'
  /** The server closed the connection part-way. */
  | 'reset'
  /** Bytes came back that are not an HTTP/1.1 response. */
  | 'invalid-response'
  /** A body past the byte cap (--max-body-bytes). */
  | 'body-too-large'
  | 'other'

/** A response body past --max-body-bytes: the exchange cannot be judged (the spec sets no size limit). */
export class BodyTooLargeError extends Error {
  readonly code = 'E_BODY_TOO_LARGE'
  constructor(
    what: string,
    readonly cap: number,
  ) {
    super(`the response body of ${what} is larger than --max-body-bytes (${cap} bytes); reading stopped there`)
    this.name = 'BodyTooLargeError'
  }
}

/** Connected, but the server sent nothing before the timeout. */
export class ResponseTimeoutError extends Error {
  readonly code = 'E_RESPONSE_TIMEOUT'
  constructor(message: string) {
    super(message)
    this.name = 'ResponseTimeoutError'
  }
}

/** What the server sent is not an HTTP/1.1 response (no status line, or the head never ended). */
export class InvalidResponseError extends Error {
  readonly code = 'E_INVALID_RESPONSE'
  constructor(message: string) {
    super(message)
    this.name = 'InvalidResponseError'
  }
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'TimeoutError',
  'ABORT_ERR',
])
const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_CLOSED',
])
/** OpenSSL's verification codes (DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE, …) and Node's ERR_TLS_*. */
const TLS_CODE = /^ERR_TLS|CERT|SSL|SELF_SIGNED|LEAF_SIGNATURE/

/** The kind of failure and the code that names it (an undici, socket or TLS code, or one of ours). */
export function classifyTransportError(error: unknown): {
  readonly failure: TransportFailure
  readonly code: string | undefined
} {
  const code = errorCode(error)
  return { failure: failureOf(error, code), code }
}

function failureOf(error: unknown, code: string | undefined): TransportFailure {
  if (error instanceof BodyTooLargeError) return 'body-too-large'
  if (error instanceof ResponseTimeoutError) return 'timeout'
  if (error instanceof InvalidResponseError) return 'invalid-response'
  if (code === undefined) return 'other'
  if (CONNECT_CODES.has(code)) return 'connect'
  if (TIMEOUT_CODES.has(code)) return 'timeout'
  if (RESET_CODES.has(code)) return 'reset'
  if (code.startsWith('HPE_')) return 'invalid-response'
  if (TLS_CODE.test(code)) return 'tls'
  return 'other'
}

/** The code of an error or of what caused it; an aborted or timed-out fetch signal reads `TimeoutError`. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: unknown }
  if (typeof code === 'string') return code
  if (name === 'TimeoutError' || name === 'AbortError') return 'TimeoutError'
  return cause ? errorCode(cause) : undefined
}
