import { readFileSync } from 'node:fs'
import type { CommandIO } from './io.js'

/** The certificate and key `proxy` and `mock` serve HTTPS with. */
export interface TlsFiles {
  readonly cert: Buffer
  readonly key: Buffer
}

/**
 * Reads `--tls-cert` and `--tls-key`: `{ tls: undefined }` when neither is given, `undefined` (after
 * saying why on `io.err`) when only one is given or either cannot be read — a usage error for the caller.
 */
export function readTlsFiles(
  options: { readonly tlsCert?: string; readonly tlsKey?: string },
  io: CommandIO,
): { tls: TlsFiles | undefined } | undefined {
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    io.err('error: --tls-cert and --tls-key go together')
    return undefined
  }
  if (options.tlsCert === undefined || options.tlsKey === undefined) return { tls: undefined }
  try {
    return { tls: { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) } }
  } catch (err) {
    io.err(`error: cannot read the TLS certificate or key: ${(err as Error).message}`)
    return undefined
  }
}
