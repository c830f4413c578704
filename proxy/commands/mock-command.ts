import { loadMockRecording, startMockServer } from '../mock-server.js'
import { EXIT_OK, EXIT_USAGE, processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'
import { waitForStop } from './wait-for-stop.js'

export interface MockCommandOptions {
  readonly port?: number
  /** Stops the mock (tests); by default SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal
  readonly onReady?: (url: string) => void
}

/** `fitconform mock FILE… [--port N]`: serves the recording until SIGINT/SIGTERM. Exit 0, or 2. */
export async function runMockCommand(files: readonly string[], options: MockCommandOptions, io: CommandIO = processIO): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT_USAGE
  const recording = await loadMockRecording(parts)
  let mock
  try {
    mock = await startMockServer(recording, { port: options.port })
  } catch (err) {
    io.err(`error: cannot start the mock server: ${(err as Error).message}`)
    return EXIT_USAGE
  }
  const skipped = recording.skipped === 0 ? '' : ` (${recording.skipped} failed or unreadable lines left out)`
  io.out(`fitconform mock listening on ${mock.url}, serving ${recording.exchanges.length} recorded exchanges${skipped}`)
  options.onReady?.(mock.url)
  await waitForStop(options.signal)
  await mock.close()
  return EXIT_OK
}
