import { CommanderError } from 'commander'
import { toDiagnostic } from '../model/diagnostic.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import { EXIT } from '../shared/exit-codes.js'
import { createProgram } from './program.js'

// `fitconform analyze rec.ndjson | head`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

// No top-level await: the bundle bin/fitconform.js starts is CommonJS (scripts/bundle-cli.mjs says why).
void main()

/** The only top-level catch: an unexpected error is printed as a diagnostic; the stack only with --debug. */
async function main(): Promise<void> {
  try {
    await createProgram().parseAsync(process.argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (or the help / version text).
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage
    } else {
      reportUnexpected(error)
    }
  }
}

function reportUnexpected(error: unknown): void {
  const diagnostic = toDiagnostic(error)
  process.stderr.write(formatDiagnostic(diagnostic, { colors: false }) + '\n')
  if (process.argv.includes('--debug') && error instanceof Error) process.stderr.write(`${error.stack}\n`)
  // A load error that reached here is still the user's input (e.g. a recording line past its bounds): exit 2.
  process.exitCode = diagnostic.kind === 'load' ? EXIT.usage : EXIT.failed
}
