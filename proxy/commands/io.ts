import type { Writable } from 'node:stream'

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

/** Exit codes, as in the rest of fitconform: 0 fine, 1 findings or a failure, 2 usage or unreadable input. */
// These must equal EXIT in src/cli/exit-codes.ts (proxy/ may not import src/cli; test/unit/proxy/exit-codes.test.ts checks).
export const EXIT_OK = 0
export const EXIT_FINDINGS = 1
export const EXIT_USAGE = 2
