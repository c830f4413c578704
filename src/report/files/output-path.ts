import { mkdir, open, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface OutputPathOptions {
  /** The path given with the reporter (`junit:out/junit.xml`), relative to `cwd`. */
  readonly explicit?: string
  /** `--output-dir`, relative to `cwd`. */
  readonly outputDir: string
  /** The reporter's file name inside the output directory (`junit.xml`). */
  readonly defaultName: string
  readonly cwd?: string
}

/**
 * The one place that decides where a report file goes: the reporter's own path if given, else
 * `<output-dir>/<default name>`. The parent directory is created.
 * @example await resolveOutputFile({ outputDir: 'reports', defaultName: 'junit.xml' }) // /abs/reports/junit.xml
 */
export async function resolveOutputFile(options: OutputPathOptions): Promise<string> {
  const cwd = options.cwd ?? process.cwd()
  const file = path.resolve(cwd, options.explicit ?? path.join(options.outputDir, options.defaultName))
  await mkdir(path.dirname(file), { recursive: true })
  return file
}

/** What every file reporter is created with. */
export interface FileReporterOptions {
  readonly outputDir: string
  /** Overrides `<outputDir>/<default name>`. */
  readonly output?: string
  readonly cwd?: string
}

/**
 * Resolves the report's path (see resolveOutputFile), writes the text and returns the absolute path.
 * A text given in parts is written as they come, so a large report is never one string in memory.
 */
export async function writeReportFile(
  options: FileReporterOptions,
  defaultName: string,
  text: string | Iterable<string>,
): Promise<string> {
  const file = await resolveOutputFile({
    outputDir: options.outputDir,
    defaultName,
    explicit: options.output,
    cwd: options.cwd,
  })
  if (typeof text === 'string') await writeFile(file, text, 'utf8')
  else await writeParts(file, text)
  return file
}

/** Parts gathered into writes of about WRITE_BATCH characters: one system call per part would cost more than it saves. */
const WRITE_BATCH = 1 << 16

async function writeParts(file: string, parts: Iterable<string>): Promise<void> {
  const handle = await open(file, 'w')
  try {
    const write = async (text: string): Promise<void> => {
      const bytes = Buffer.from(text, 'utf8')
      for (let done = 0; done < bytes.length;) done += (await handle.write(bytes, done)).bytesWritten
    }
    let batch = ''
    for (const part of parts) {
      batch += part
      if (batch.length >= WRITE_BATCH) {
        await write(batch)
        batch = ''
      }
    }
    await write(batch)
  } finally {
    await handle.close()
  }
}
