import { loadMockRecording, startMockServer } from '../mock-server.js'
import { REDACT_KEY_ENV } from '../proxy-defaults.js'
import { createSkipWarnings } from '../read-exchanges.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { processIO, type CommandIO } from './io.js'
import { DEFAULT_HOST, hostWarning, listenErrorMessage, normalizeHost } from './listen-address.js'
import { recordingParts } from './recording-parts.js'
import { waitForStop } from './wait-for-stop.js'

export interface MockCommandOptions {
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Print the listening line and the summary only, not one line per request. */
  readonly quiet?: boolean
  /** Stops the mock (tests); by default SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal
  readonly onReady?: (url: string) => void
}

/**
 * `fitconform mock FILE… [--port N] [--host ADDR]`: serves the recording until SIGINT/SIGTERM, one
 * line per request on stderr. Exit 0; 2 for a missing recording or an address it cannot listen on.
 */
export async function runMockCommand(files: readonly string[], options: MockCommandOptions, io: CommandIO = processIO): Promise<number> {
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
    mock = await startMockServer(recording, { port, host, ...(redactKey === undefined ? {} : { redactKey }), ...(options.quiet === true ? {} : { log: io.err }) })
  } catch (err) {
    io.err(`error: ${listenErrorMessage(err, { host, port }) ?? `cannot start the mock server: ${(err as Error).message}`}`)
    return EXIT.usage
  }
  const failed = recording.failed === 0 ? '' : ` (${recording.failed} failed exchanges left out)`
  const credentials = redactKey === undefined ? `credentials matched on presence only (set ${REDACT_KEY_ENV} to the recording's key to match which one)` : 'credentials matched by their keyed hash'
  io.out(`fitconform mock listening on ${mock.url}, serving ${recording.exchanges.length} recorded exchanges${failed}; ${credentials}`)
  options.onReady?.(mock.url)
  await waitForStop(options.signal)
  await mock.close()
  return EXIT.ok
}
