import { toDiagnostic } from '../model/diagnostic.js'
import { formatDiagnostic } from '../report/format-diagnostic.js'
import { EXIT } from './exit-codes.js'
import { createProgram } from './program.js'

/** The only top-level catch: an unexpected error is printed as a diagnostic; the stack only with --debug. */
try {
  await createProgram().parseAsync(process.argv)
} catch (error) {
  process.stderr.write(formatDiagnostic(toDiagnostic(error), { colors: false }) + '\n')
  if (process.argv.includes('--debug') && error instanceof Error) process.stderr.write(`${error.stack}\n`)
  process.exitCode = EXIT.failed
}
