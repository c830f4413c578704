import { loadMockRecording, startMockServer, type MockRecording } from '../mock/mock-server.js'
import { REDACT_KEY_ENV } from '../forward/proxy-defaults.js'
import { createSkipWarnings } from '../reading/read-exchanges.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { printDiagnostic, processIO, type CommandIO } from './io.js'
import { readTlsFiles } from './tls-files.js'
import { DEFAULT_HOST, hostWarning, listenProblem, normalizeHost } from './listen-address.js'
import { recordingParts } from './recording-parts.js'
import { waitForStop } from './wait-for-stop.js'

export interface MockCommandOptions {
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Print the listening line and the summary only, not one line per request. */
  readonly quiet?: boolean
  /** Listen with TLS, as `proxy` does: PEM certificate and private key files, both or neither. */
  readonly tlsCert?: string
  readonly tlsKey?: string
  /** Stops the mock (tests); by default SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal
  readonly onReady?: (url: string) => void
}

/**
 * `fitconform mock FILE… [--port N] [--host ADDR] [--tls-cert F --tls-key F]`: serves the recording until
 * SIGINT/SIGTERM, one line per request on stderr. Exit 0; 2 for a missing recording, an unreadable
 * certificate or key, or an address it cannot listen on.
 */
export async function runMockCommand(
  files: readonly string[],
  options: MockCommandOptions,
  io: CommandIO = processIO,
): Promise<number> {
  const tlsFiles = readTlsFiles(options, io)
  if (tlsFiles === undefined) return EXIT.usage
  const { tls } = tlsFiles
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT.usage
  const warnings = createSkipWarnings(io.err)
  const recording = await loadMockRecording(parts, warnings.onSkipped)
  const skipped = warnings.summary()
  if (skipped !== undefined) io.err(skipped)
  const host = normalizeHost(options.host ?? DEFAULT_HOST)
  const port = options.port ?? 0
  const warning = hostWarning(host)
  if (warning !== undefined) io.err(warning)
  const redactKey = process.env[REDACT_KEY_ENV] || undefined
  let mock
  try {
    mock = await startMockServer(recording, {
      port,
      host,
      tls,
      redactKey,
      log: options.quiet === true ? undefined : io.err,
    })
  } catch (err) {
    const listening = listenProblem(err, { host, port })
    printDiagnostic(io, {
      code: listening === undefined ? 'E_MOCK_START' : 'E_LISTEN',
      kind: 'load',
      ...(listening ?? {
        message: `cannot start the mock server: ${(err as Error).message}`,
        hint: 'check --host and --port, and the certificate and key given with --tls-cert and --tls-key',
      }),
    })
    return EXIT.usage
  }
  const failed = recording.failed === 0 ? '' : ` (${recording.failed} failed exchanges left out)`
  io.out(
    `fitconform mock listening on ${mock.url}, serving ${recording.exchanges.length} recorded exchanges${failed}; ${credentialsLine(recording, redactKey !== undefined)}`,
  )
  options.onReady?.(mock.url)
  await waitForStop(options.signal)
  await mock.close()
  return EXIT.ok
}

/** How the mock tells users apart, said at start (docs/proxy.md § mock). */
function credentialsLine(recording: MockRecording, keyed: boolean): string {
  const users = recording.credentials.length
  if (keyed)
    return `credentials matched by their keyed hash (${REDACT_KEY_ENV}): a token the recording does not hold gets 501`
  if (users === 0) return 'no recorded exchange carries credentials'
  if (users === 1)
    return `the recording holds one user's credential: any token is answered as that user (set ${REDACT_KEY_ENV} to the recording's key to answer only that token)`
  return `the recording holds ${users} users' credentials and ${REDACT_KEY_ENV} is not set, so a request with credentials gets 501: the mock cannot tell whose they are. Set ${REDACT_KEY_ENV} to the key the recording was made with (a recording made without one must be made again with it set)`
}
