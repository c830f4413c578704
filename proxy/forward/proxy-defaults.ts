/**
 * Constants the CLI shows in its help text. Imports nothing, so `fitconform --help` (and every other
 * command) can name them without loading the proxy.
 */

/** Bodies are recorded up to this size (`--max-body-bytes`), marked truncated beyond. */
export const DEFAULT_RECORDED_BODY_BYTES = 1024 * 1024

/** Env var holding a fixed HMAC key for token ids, so ids match across recordings. */
export const REDACT_KEY_ENV = 'FITCONFORM_REDACT_KEY'

/** Where `proxy` listens unless `--host` says otherwise: loopback, so recorded tokens stay on this machine. */
export const DEFAULT_HOST = '127.0.0.1'
