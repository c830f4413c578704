/** Where something came from in a scenario file: 1-based line and column, path relative to the cwd. */
export interface SourceRef {
  readonly file: string
  readonly line: number
  readonly column: number
}

/**
 * The codes of the recording proxy and its tools (`proxy`, `mock`, `har`, `scaffold`, `analyze`): a list,
 * not only a type, so that a test holds docs/proxy.md's table of them to it.
 */
export const PROXY_ERROR_CODES = [
  'E_TLS_PAIR',
  'E_TLS_READ',
  'E_REDACT_PATH',
  'E_LISTEN',
  'E_PROXY_START',
  'E_MOCK_START',
  'E_LISTENER',
  'E_NO_RECORDING',
  'E_RECORDING_TOO_DEEP',
  'E_RECORDING_LINE_TOO_LONG',
  'E_MAX_LINE_BYTES',
  'E_RECORDING_WRITE',
  'E_RECORDING_THREAD',
  'E_UNRECORDABLE',
  'E_UNRECORDED',
  'E_HAR_OUTPUT',
  'E_HAR_WRITE',
  'E_SCAFFOLD_INTO_SUITES',
  'E_SCAFFOLD_FILES_EXIST',
] as const

export type ProxyErrorCode = (typeof PROXY_ERROR_CODES)[number]

/**
 * Stable error codes. Never reuse a code for another meaning: users grep CI logs for them.
 * load: nothing was sent; failure: the server departs from the spec; error: the run could not
 * find out (transport, timeout, rate limit); internal: a bug of ours.
 */
export type ErrorCode =
  | 'E_USAGE'
  | 'E_CONFIG'
  | 'E_YAML_SYNTAX'
  | 'E_SCENARIO_SCHEMA'
  | 'E_UNKNOWN_RULE'
  | 'E_DUPLICATE_ID'
  | 'E_BAD_EXPRESSION'
  | 'E_BAD_MATCHER'
  | 'E_TEMPLATE_UNDEFINED'
  | 'E_BAD_URL'
  | 'E_CHECK_FAILED'
  | 'E_CONNECT'
  | 'E_TIMEOUT'
  | 'E_TRANSPORT'
  | 'E_SERVER_BUSY'
  | 'E_BODY_TOO_LARGE'
  | 'E_UNREACHABLE'
  | 'E_PREFLIGHT'
  | 'E_CLEANUP'
  | 'E_WRITE_REFUSED'
  | 'E_LEDGER'
  | 'E_REPORTER'
  | 'E_INTERNAL'
  | ProxyErrorCode

export type DiagnosticKind = 'load' | 'failure' | 'error' | 'internal'

export interface Diagnostic {
  readonly code: ErrorCode
  readonly kind: DiagnosticKind
  readonly message: string
  readonly at?: SourceRef
  readonly hint?: string
  readonly details?: readonly string[]
}

/** The one error class we throw; it carries data and becomes a Diagnostic again at stage boundaries. */
export class ConformanceError extends Error {
  readonly diagnostic: Diagnostic
  constructor(diagnostic: Diagnostic) {
    super(diagnostic.message)
    this.name = 'ConformanceError'
    this.diagnostic = diagnostic
  }
}

export function toDiagnostic(error: unknown): Diagnostic {
  if (error instanceof ConformanceError) return error.diagnostic
  const message = error instanceof Error ? error.message : String(error)
  return { code: 'E_INTERNAL', kind: 'internal', message }
}
