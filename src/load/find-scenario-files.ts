import { readdir, realpath, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import { RULES_FILE_NAME } from './load-rules.js'

/** No scenario file comes near this; a bigger one is a mistake (or an attack) that would exhaust memory. */
const MAX_SCENARIO_FILE_BYTES = 4 * 1024 * 1024

const isScenarioFile = (name: string): boolean =>
  /\.ya?ml$/.test(name) && basename(name) !== RULES_FILE_NAME && !name.includes('node_modules')

/**
 * Expands files and folders (relative to the caller's cwd) into scenario files, sorted so runs are
 * repeatable. Only regular files of at most MAX_SCENARIO_FILE_BYTES are taken: a FIFO or a device
 * would block the read for ever, a huge file would exhaust memory; each is a usage error naming why.
 */
export async function findScenarioFiles(
  paths: readonly string[],
): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files = new Set<string>()
  const diagnostics: Diagnostic[] = []
  const take = async (file: string, shown: string): Promise<void> => {
    const info = await stat(file).catch(() => undefined)
    const problem = !info
      ? 'cannot be read'
      : !info.isFile()
        ? `is not a regular file (${kindOf(info)}); scenario files must be plain files`
        : info.size > MAX_SCENARIO_FILE_BYTES
          ? `is ${info.size} bytes, more than the ${MAX_SCENARIO_FILE_BYTES} bytes (4 MiB) a scenario file may have`
          : undefined
    if (problem) diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `${shown} ${problem}` })
    else files.add(file)
  }
  for (const path of paths) {
    const absolute = resolve(path)
    const info = await stat(absolute).catch(() => undefined)
    if (!info) {
      diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `no such file or folder: ${path}` })
    } else if (info.isDirectory()) {
      const entries = await filesUnder(absolute, path, diagnostics)
      for (const entry of entries.filter(isScenarioFile)) await take(join(absolute, entry), join(path, entry))
    } else {
      await take(absolute, path)
    }
  }
  return { files: [...files].sort(), diagnostics }
}

/**
 * The files below a folder, as paths relative to it. A symbolic link to a folder is followed once:
 * one that leads back to a folder already on the way down is a loop (Node's recursive readdir would
 * go round it until the path is too long), named in a usage error and not entered.
 */
async function filesUnder(root: string, shown: string, diagnostics: Diagnostic[]): Promise<string[]> {
  const files: string[] = []
  const pending: { relative: string; ancestors: ReadonlySet<string> }[] = [{ relative: '', ancestors: new Set() }]
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    const absolute = join(root, folder.relative)
    const real = await realpath(absolute).catch(() => undefined)
    if (real === undefined) {
      diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `${join(shown, folder.relative)} cannot be read` })
      continue
    }
    if (folder.ancestors.has(real)) {
      diagnostics.push({
        code: 'E_USAGE',
        kind: 'load',
        message: `${join(shown, folder.relative)} is a symbolic link back to ${real}, a folder it is inside: a loop; remove the link or name the folders to run`,
      })
      continue
    }
    const ancestors = new Set([...folder.ancestors, real])
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => undefined)
    if (entries === undefined) {
      diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `${join(shown, folder.relative)} cannot be read` })
      continue
    }
    for (const entry of entries) {
      const relative = join(folder.relative, entry.name)
      const isFolder =
        entry.isDirectory() ||
        (entry.isSymbolicLink() && (await stat(join(root, relative)).catch(() => undefined))?.isDirectory() === true)
      if (isFolder) {
        if (entry.name !== 'node_modules') pending.push({ relative, ancestors })
      } else files.push(relative)
    }
  }
  return files
}

function kindOf(info: Awaited<ReturnType<typeof stat>>): string {
  if (info.isFIFO()) return 'a FIFO'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSocket()) return 'a socket'
  if (info.isDirectory()) return 'a folder'
  return 'not a file'
}
