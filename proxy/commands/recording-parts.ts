import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { recordingFiles } from '../recording/exchange-log.js'
import { printDiagnostic, type CommandIO } from './io.js'

/**
 * The files to read for the recordings named on a command line: each with its rotated parts, oldest
 * first (`<file>.1`, `<file>.2`, …, then `<file>`, as `--max-bytes` writes them). A part named next to
 * its recording (`session.ndjson*` in a shell) is read once, in its place; a part named alone is read
 * alone. Undefined, after saying which, when a named recording does not exist.
 */
export function recordingParts(files: readonly string[], io: CommandIO): string[] | undefined {
  const named = new Set(files.map((file) => resolve(file)))
  const parts: string[] = []
  const seen = new Set<string>()
  const missing: string[] = []
  for (const file of files) {
    if (isPartOfNamedRecording(file, named)) continue
    const found = recordingFiles(file).filter((part) => existsSync(part))
    if (found.length === 0) missing.push(file)
    for (const part of found) {
      if (seen.has(resolve(part))) continue
      seen.add(resolve(part))
      parts.push(part)
    }
  }
  if (missing.length === 0) return parts
  printDiagnostic(io, {
    code: 'E_NO_RECORDING',
    kind: 'load',
    message: `no such recording: ${missing.join(', ')}`,
    hint: 'name a file `fitconform proxy --record` wrote; its rotated parts (<file>.1, …) are read with it',
  })
  return undefined
}

function isPartOfNamedRecording(file: string, named: ReadonlySet<string>): boolean {
  const match = /^(.+)\.\d+$/.exec(file)
  return match !== null && named.has(resolve(match[1] as string))
}
