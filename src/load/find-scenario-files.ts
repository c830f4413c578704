import { readdir, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import { RULES_FILE_NAME } from './load-rules.js'

const isScenarioFile = (name: string): boolean => /\.ya?ml$/.test(name) && basename(name) !== RULES_FILE_NAME && !name.includes('node_modules')

/** Expands files and folders (relative to the caller's cwd) into scenario files, sorted so runs are repeatable. */
export async function findScenarioFiles(paths: readonly string[]): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files = new Set<string>()
  const diagnostics: Diagnostic[] = []
  for (const path of paths) {
    const absolute = resolve(path)
    const info = await stat(absolute).catch(() => undefined)
    if (!info) {
      diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `no such file or folder: ${path}` })
    } else if (info.isDirectory()) {
      const entries = await readdir(absolute, { recursive: true })
      for (const entry of entries) if (isScenarioFile(entry)) files.add(join(absolute, entry))
    } else {
      files.add(absolute)
    }
  }
  return { files: [...files].sort(), diagnostics }
}
