import { createSkipWarnings, refusalOf } from '../reading/read-exchanges.js'
import { formatSummary, summarizeRecordings } from '../reading/summarize-recording.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { printDiagnostic, processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'

export interface AnalyzeCommandOptions {
  readonly json?: boolean
}

/**
 * `fitconform analyze FILE…`: exchanges per endpoint, status codes, findings by rule with examples.
 * Exit code 0; 1 when the recording holds a violation; 2 when a file cannot be read or holds a line past
 * the reader's bounds (too long, too deep: read-exchanges.ts). A malformed line
 * is skipped with a `file:line` warning on stderr.
 */
export async function runAnalyzeCommand(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  io: CommandIO = processIO,
): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT.usage
  const warnings = createSkipWarnings(io.err)
  let summary
  try {
    summary = await summarizeRecordings(parts, warnings.onSkipped)
  } catch (error) {
    const refused = refusalOf(error)
    if (refused === undefined) throw error
    printDiagnostic(io, refused)
    return EXIT.usage
  }
  const skipped = warnings.summary()
  if (skipped !== undefined) io.err(skipped)
  if (options.json === true) io.out(JSON.stringify({ schemaVersion: 1, ...summary }, null, 2))
  else for (const line of formatSummary(summary)) io.out(line)
  return summary.kinds.violation > 0 ? EXIT.failed : EXIT.ok
}
