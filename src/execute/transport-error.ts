import type { Diagnostic } from '../model/diagnostic.js'

/** undici and socket error codes → our diagnostics, with what the user can do about each. */
export function transportDiagnostic(error: unknown, url: string, timeoutMs: number): Diagnostic {
  const code = errorCode(error)
  const message = error instanceof Error ? error.message : String(error)
  switch (code) {
    case 'E_BODY_TOO_LARGE':
      return { code: 'E_BODY_TOO_LARGE', kind: 'error', message: `not judged: ${message}`, hint: 'raise --max-body-bytes if the server really sends bodies this large' }
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code: 'E_CONNECT', kind: 'error', message: `cannot connect to ${origin(url)} (${code})`, hint: 'is the server running, and is --base-url right?' }
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'TimeoutError':
    case 'ABORT_ERR':
      return { code: 'E_TIMEOUT', kind: 'error', message: `no complete response from ${url} within ${timeoutMs} ms (${code})`, hint: 'raise --timeout if the server is slow but working' }
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { code: 'E_CONNECT', kind: 'error', message: `TLS certificate of ${origin(url)} not trusted (${code})`, hint: 'pass the CA with --ca FILE, or --insecure for a staging server' }
    default:
      return { code: 'E_TRANSPORT', kind: 'error', message: `the exchange with ${url} broke off: ${message}${code ? ` (${code})` : ''}` }
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: unknown }
  if (typeof code === 'string') return code
  if (name === 'TimeoutError' || name === 'AbortError') return 'TimeoutError'
  return cause ? errorCode(cause) : undefined
}

function origin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/** A response body past --max-body-bytes: the exchange cannot be judged (the spec sets no size limit). */
export class BodyTooLargeError extends Error {
  readonly code = 'E_BODY_TOO_LARGE'
  constructor(what: string, readonly cap: number) {
    super(`the response body of ${what} is larger than --max-body-bytes (${cap} bytes); reading stopped there`)
    this.name = 'BodyTooLargeError'
  }
}
