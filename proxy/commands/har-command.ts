import { createWriteStream } from 'node:fs'
import { resolve } from 'node:path'
import { packageVersion } from '../../src/shared/package-root.js'
import { writeHarFile } from '../har-file.js'
import { createSkipWarnings } from '../read-exchanges.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'

export interface HarCommandOptions {
  /** The .har file; `-` is stdout; without it, beside the first recording with `.har` for its extension. */
  readonly output?: string
}

/**
 * `fitconform har FILE… [-o out.har | -o -]`: a HAR 1.2 file for browser dev tools. Exit 0, or 2 when
 * a recording is missing or the output cannot be written. Malformed lines are skipped with a warning.
 */
export async function runHarCommand(files: readonly string[], options: HarCommandOptions, io: CommandIO = processIO): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT.usage
  const output = options.output ?? besideRecording(files[0] ?? 'recording')
  const toStdout = output === '-'
  if (!toStdout && parts.some((part) => resolve(part) === resolve(output))) {
    io.err(`error: ${output} is a recording being read; name another file with -o`)
    return EXIT.usage
  }
  const warnings = createSkipWarnings(io.err)
  try {
    const out = toStdout ? (io.stdout ?? process.stdout) : createWriteStream(output, { mode: 0o600 })
    const result = await writeHarFile(parts, out, { creatorVersion: packageVersion(), onSkipped: warnings.onSkipped, end: !toStdout })
    const skipped = warnings.summary()
    if (skipped !== undefined) io.err(skipped)
    // With -o -, stdout is the HAR: the receipt goes to stderr.
    const receipt = `wrote ${result.entries} entries to ${toStdout ? 'stdout' : output}`
    if (toStdout) io.err(receipt)
    else io.out(receipt)
    return EXIT.ok
  } catch (err) {
    io.err(`error: cannot write ${toStdout ? 'stdout' : output}: ${(err as Error).message}`)
    return EXIT.usage
  }
}

/** `session.ndjson` → `session.har`; a name without an extension gets `.har` added. */
function besideRecording(recording: string): string {
  const cut = recording.replace(/\.(ndjson|jsonl|json)$/i, '')
  return `${cut}.har`
}
