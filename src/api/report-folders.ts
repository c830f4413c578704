import { constants } from 'node:fs'
import { access, mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { parseReporterList } from '../report/registry.js'
import { REPORT_FILE_NAMES } from '../report/files/report-file-names.js'

/**
 * Creates the folders a run writes into (the output folder, which also holds the cleanup ledger, and
 * the folder of each built-in reporter's own path) before anything is sent, and answers why one cannot
 * be, or undefined when all can. `--output-dir /dev/full/x` or a path under a regular file used to end
 * the run with E_INTERNAL once the server had been asked.
 */
export async function prepareReportFolders(
  reporterList: string,
  outputDir: string,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  const folders = new Set([path.resolve(cwd, outputDir)])
  for (const spec of parseReporterList(reporterList)) {
    if (REPORT_FILE_NAMES[spec.name] !== undefined && spec.option !== undefined)
      folders.add(path.dirname(path.resolve(cwd, spec.option)))
  }
  for (const folder of folders) {
    const problem = await whyNotWritable(folder)
    if (problem !== undefined)
      return `cannot create the report folder ${shown(folder, cwd)}: ${problem}; name a folder you can write to with --output-dir (or in the reporter's name:file)`
  }
  return undefined
}

async function whyNotWritable(folder: string): Promise<string | undefined> {
  try {
    await mkdir(folder, { recursive: true })
    if (!(await stat(folder)).isDirectory()) return 'ENOTDIR: it exists and is not a folder'
    await access(folder, constants.W_OK)
    return undefined
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    // mkdir on a path that is a file says EEXIST: say what it is instead.
    if (code === 'EEXIST') return 'ENOTDIR: it exists and is not a folder'
    return message.startsWith(`${code ?? ''}:`) ? message : `${code ?? 'error'}: ${message}`
  }
}

/**
 * True when a reporter's error is the file system refusing a write (disk full, no permission, a path
 * that is no folder): the user's output path or disk, not a bug of the reporter. The multiplexer keeps
 * the message (`reporter "json" failed in onRunEnd: ENOSPC: no space left on device, write`).
 */
export function isWriteFailure(message: string): boolean {
  return /: (?:ENOSPC|EDQUOT|EFBIG|EROFS|EACCES|EPERM|ENOTDIR|EISDIR|ENOENT|EEXIST|EIO|ENAMETOOLONG|ELOOP|EMFILE|ENFILE): /.test(
    message,
  )
}

function shown(folder: string, cwd: string): string {
  const relative = path.relative(cwd, folder)
  return relative === '' ? '.' : relative.startsWith('..') ? folder : relative
}
