import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { packageRoot } from '../../src/shared/package-root.js'
import { createSkipWarnings, refusalOf } from '../reading/read-exchanges.js'
import { scaffoldRecording } from '../scaffold/scaffold-recording.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { printDiagnostic, processIO, type CommandIO } from './io.js'
import { recordingParts } from './recording-parts.js'

export interface ScaffoldCommandOptions {
  readonly output: string
  /** Allow writing under the built-in suites/ folder. */
  readonly intoSuites?: boolean
  /** Overwrite scenario files that exist. */
  readonly force?: boolean
}

/**
 * `fitconform scaffold FILE… -o DIR`: one YAML scenario file per distinct recorded flow, for review.
 * Exit 0; 2 for a missing recording, a line past the reader's bounds (nothing is written then), an output
 * inside suites/ without --into-suites, or a file in the way.
 */
export async function runScaffoldCommand(
  files: readonly string[],
  options: ScaffoldCommandOptions,
  io: CommandIO = processIO,
): Promise<number> {
  const parts = recordingParts(files, io)
  if (parts === undefined) return EXIT.usage
  const output = resolve(options.output)
  const builtIn = join(packageRoot(), 'suites')
  if (options.intoSuites !== true && (output === builtIn || output.startsWith(`${builtIn}${sep}`))) {
    printDiagnostic(io, {
      code: 'E_SCAFFOLD_INTO_SUITES',
      kind: 'load',
      message: `${options.output} is inside the built-in suites/; scaffolded scenarios need review first`,
      hint: 'pass --into-suites to write there anyway',
    })
    return EXIT.usage
  }
  const schemaPath = relative(output, join(packageRoot(), 'schemas', 'scenario.schema.json'))
    .split(sep)
    .join('/')
  const warnings = createSkipWarnings(io.err)
  let outcome
  try {
    outcome = await scaffoldRecording(parts, { schemaPath, onSkipped: warnings.onSkipped })
  } catch (error) {
    const refused = refusalOf(error)
    if (refused === undefined) throw error
    printDiagnostic(io, refused)
    return EXIT.usage
  }
  const skipped = warnings.summary()
  if (skipped !== undefined) io.err(skipped)
  const inTheWay = outcome.files.filter((file) => existsSync(join(output, file.name)))
  if (inTheWay.length > 0 && options.force !== true) {
    printDiagnostic(io, {
      code: 'E_SCAFFOLD_FILES_EXIST',
      kind: 'load',
      message: `these files exist in ${options.output}: ${inTheWay.map((file) => file.name).join(', ')}`,
      hint: 'pass --force to overwrite',
    })
    return EXIT.usage
  }
  mkdirSync(output, { recursive: true })
  for (const file of outcome.files) writeFileSync(join(output, file.name), file.text)
  io.out(`wrote ${outcome.files.length} scenario file(s) to ${options.output}; review them before committing`)
  for (const item of outcome.leftOut) io.out(`  left out exchange #${item.exchange}: ${item.reason}`)
  const unlisted = outcome.leftOutCount - outcome.leftOut.length
  if (unlisted > 0) io.out(`  … and ${unlisted} more exchange(s) left out`)
  return EXIT.ok
}
