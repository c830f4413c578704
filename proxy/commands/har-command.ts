import { packageVersion } from '../../src/package-root.js'
import { writeHarFile } from '../har-file.js'
import { EXIT_OK, EXIT_USAGE, processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'

export interface HarCommandOptions {
  readonly output: string
}

/** `fitconform har FILE… -o out.har`: a HAR 1.2 file for browser dev tools. Exit 0, or 2 when unreadable. */
export async function runHarCommand(files: readonly string[], options: HarCommandOptions, io: CommandIO = processIO): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT_USAGE
  try {
    const result = await writeHarFile(parts, options.output, packageVersion())
    const skipped = result.skippedLines === 0 ? '' : ` (${result.skippedLines} unreadable lines skipped)`
    io.out(`wrote ${result.entries} entries to ${options.output}${skipped}`)
    return EXIT_OK
  } catch (err) {
    io.err(`error: cannot write ${options.output}: ${(err as Error).message}`)
    return EXIT_USAGE
  }
}
