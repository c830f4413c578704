import { readFileSync } from 'node:fs'
import { printDiagnostic, type CommandIO } from './io.js'

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
    printDiagnostic(io, {
      code: 'E_TLS_PAIR',
      kind: 'load',
      message: '--tls-cert and --tls-key go together',
      hint: 'give both (PEM files), or neither to listen without TLS',
    })
    return undefined
  }
  if (options.tlsCert === undefined || options.tlsKey === undefined) return { tls: undefined }
  try {
    return { tls: { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) } }
  } catch (err) {
    printDiagnostic(io, {
      code: 'E_TLS_READ',
      kind: 'load',
      message: `cannot read the TLS certificate or key: ${(err as Error).message}`,
      hint: 'check the paths given to --tls-cert and --tls-key, and that this user may read them',
    })
    return undefined
  }
}
