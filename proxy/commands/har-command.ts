import { constants, createWriteStream, lstatSync, rmSync, type Stats, type WriteStream } from 'node:fs'
import { resolve } from 'node:path'
import type { Writable } from 'node:stream'
import { packageVersion } from '../../src/shared/package-root.js'
import { writeHarFile } from '../reading/har-file.js'
import { createSkipWarnings, refusalOf } from '../reading/read-exchanges.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { printDiagnostic, processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'

export interface HarCommandOptions {
  /** The .har file; `-` is stdout; without it, beside the first recording with `.har` for its extension. */
  readonly output?: string
  /** Overwrite an existing file (never a symbolic link). */
  readonly force?: boolean
}

/**
 * `fitconform har FILE… [-o out.har | -o -] [--force]`: a HAR 1.2 file for browser dev tools. Exit 0,
 * or 2 when a recording is missing or holds a line past the reader's bounds (the half-written file is
 * removed), or the output cannot be written, is a symbolic link, or exists
 * without --force (as scaffold asks). Malformed lines are skipped with a warning.
 */
export async function runHarCommand(
  files: readonly string[],
  options: HarCommandOptions,
  io: CommandIO = processIO,
): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT.usage
  const output = options.output ?? besideRecording(files[0] ?? 'recording')
  const toStdout = output === '-'
  if (!toStdout && parts.some((part) => resolve(part) === resolve(output))) {
    printDiagnostic(io, {
      code: 'E_HAR_OUTPUT',
      kind: 'load',
      message: `${output} is a recording being read`,
      hint: 'name another file with -o',
    })
    return EXIT.usage
  }
  const refusal = toStdout ? undefined : refuseOutput(output, options.force === true)
  if (refusal !== undefined) {
    printDiagnostic(io, { code: 'E_HAR_OUTPUT', kind: 'load', ...refusal })
    return EXIT.usage
  }
  const warnings = createSkipWarnings(io.err)
  let out: Writable | undefined
  try {
    // O_NOFOLLOW: a link put in place after the check above is refused by the open itself.
    const flags =
      constants.O_WRONLY |
      constants.O_CREAT |
      constants.O_TRUNC |
      constants.O_NOFOLLOW |
      (options.force === true ? 0 : constants.O_EXCL)
    out = toStdout ? (io.stdout ?? process.stdout) : await openedForWriting(output, flags)
    const result = await writeHarFile(parts, out, {
      creatorVersion: packageVersion(),
      onSkipped: warnings.onSkipped,
      end: !toStdout,
    })
    const skipped = warnings.summary()
    if (skipped !== undefined) io.err(skipped)
    // With -o -, stdout is the HAR: the receipt goes to stderr.
    const receipt = `wrote ${result.entries} entries to ${toStdout ? 'stdout' : output}`
    if (toStdout) io.err(receipt)
    else io.out(receipt)
    return EXIT.ok
  } catch (err) {
    printDiagnostic(
      io,
      refusalOf(err) ?? {
        code: 'E_HAR_WRITE',
        kind: 'error',
        message: `cannot write ${toStdout ? 'stdout' : output}: ${(err as Error).message}`,
        hint: toStdout
          ? 'check that whatever reads stdout keeps reading'
          : 'check that the folder exists and is writable, or write to stdout with -o -',
      },
    )
    // The file is ours (just created, or truncated with --force) and holds half a HAR: it goes.
    if (!toStdout && out !== undefined) {
      out.destroy()
      rmSync(output, { force: true })
    }
    return EXIT.usage
  }
}

/** Why the HAR may not be written at `output`, and what to do instead; undefined when it may. */
function refuseOutput(output: string, force: boolean): { message: string; hint: string } | undefined {
  let stats: Stats
  try {
    stats = lstatSync(output)
  } catch {
    return undefined // nothing there yet (or a folder that does not exist, which the open reports)
  }
  if (stats.isSymbolicLink())
    return {
      message: `${output} is a symbolic link; fitconform does not write through one`,
      hint: 'remove it or name another file with -o',
    }
  if (!stats.isFile())
    return { message: `${output} exists and is not a regular file`, hint: 'name another file with -o' }
  return force
    ? undefined
    : { message: `${output} exists`, hint: 'pass --force to overwrite it, or name another file with -o' }
}

/** The write stream once its file is open, so a refused open is the command's error, not a stream's. */
function openedForWriting(output: string, flags: number): Promise<WriteStream> {
  return new Promise((resolvePromise, reject) => {
    // createWriteStream passes numeric flags on to fs.open, though its types name strings only.
    const stream = createWriteStream(output, { flags: flags as unknown as string, mode: 0o600 })
    stream.once('open', () => resolvePromise(stream))
    stream.once('error', reject)
  })
}

/** `session.ndjson` → `session.har`; a name without an extension gets `.har` added. */
function besideRecording(recording: string): string {
  const cut = recording.replace(/\.(ndjson|jsonl|json)$/i, '')
  return `${cut}.har`
}
