import type { Writable } from 'node:stream'
import type { Diagnostic } from '../../src/model/diagnostic.js'
import { formatDiagnostic } from '../../src/report/text/format-diagnostic.js'

/** Where a command writes (STYLE §2.10's `Screen`): the CLI passes the process streams, tests collect lines. */
export interface CommandIO {
  out(line: string): void
  err(line: string): void
  /** The byte stream behind `out`, for output that is no list of lines (`har -o -`); process.stdout by default. */
  readonly stdout?: Writable
}

export const processIO: CommandIO = {
  out: (line) => {
    process.stdout.write(`${line}\n`)
  },
  err: (line) => {
    process.stderr.write(`${line}\n`)
  },
  stdout: process.stdout,
}

/** What went wrong, on `io.err`, in the runner's layout: `error[E_CODE]: …` and `= hint: …` (no colours). */
export function printDiagnostic(io: CommandIO, diagnostic: Diagnostic): void {
  io.err(formatDiagnostic(diagnostic, { colors: false }))
}
