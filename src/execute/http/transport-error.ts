import type { Diagnostic } from '../../model/diagnostic.js'
import { classifyTransportError } from '../../shared/transport-failure.js'
import { ServerBusyError } from './busy-retry.js'
import { resendBefore } from './reused-connection.js'

/**
 * A failure below HTTP (src/shared/transport-failure.ts) → our diagnostic, with what the user can do about it.
 * The failure of a read's second send says why it was sent twice: the blame is the second send's.
 */
export function transportDiagnostic(error: unknown, url: string, timeoutMs: number): Diagnostic {
  const diagnostic = describe(error, url, timeoutMs)
  const resent = resendBefore(error)
  return resent === undefined ? diagnostic : { ...diagnostic, message: `${diagnostic.message}; ${resent}` }
}

function describe(error: unknown, url: string, timeoutMs: number): Diagnostic {
  if (error instanceof ServerBusyError) {
    return {
      code: 'E_SERVER_BUSY',
      kind: 'error',
      message: `not judged: ${error.message}`,
      hint: 'run again when the server is less busy, or lower --concurrency',
    }
  }
  const { failure, code } = classifyTransportError(error)
  const message = error instanceof Error ? error.message : String(error)
  switch (failure) {
    case 'body-too-large':
      return {
        code: 'E_BODY_TOO_LARGE',
        kind: 'error',
        message: `not judged: ${message}`,
        hint: 'raise --max-body-bytes if the server really sends bodies this large',
      }
    case 'connect':
      return {
        code: 'E_CONNECT',
        kind: 'error',
        message: `cannot connect to ${origin(url)} (${code})`,
        hint: 'is the server running, and is --base-url right?',
      }
    case 'timeout':
      return {
        code: 'E_TIMEOUT',
        kind: 'error',
        message: `no complete response from ${url} within ${timeoutMs} ms (${code})`,
        hint: 'raise --timeout if the server is slow but working',
      }
    case 'tls':
      return {
        code: 'E_CONNECT',
        kind: 'error',
        message: `TLS certificate of ${origin(url)} not trusted (${code})`,
        hint: 'pass the CA with --ca FILE, or --insecure for a staging server',
      }
    default:
      return {
        code: 'E_TRANSPORT',
        kind: 'error',
        message: `the exchange with ${url} broke off: ${message}${code ? ` (${code})` : ''}`,
      }
  }
}

function origin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
