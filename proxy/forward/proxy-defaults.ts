/**
 * The proxy's defaults, in one place: the settings (proxy-settings.ts) and the CLI's help text read
 * them. Imports nothing, so `fitconform --help` (and every other command) can name them without
 * loading the proxy.
 */

/** Bodies are recorded up to this size (`--max-body-bytes`), marked truncated beyond. */
export const DEFAULT_RECORDED_BODY_BYTES = 1024 * 1024

/** Env var holding a fixed HMAC key for token ids, so ids match across recordings. */
export const REDACT_KEY_ENV = 'FITCONFORM_REDACT_KEY'

/** Where `proxy` listens unless `--host` says otherwise: loopback, so recorded tokens stay on this machine. */
export const DEFAULT_HOST = '127.0.0.1'

/** A silent upstream is given up on after this long (`--timeout`): the client gets a 504. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000
