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

/** Parts gathered into writes of WRITE_BATCH bytes: one system call per part would cost more than it saves. */
const WRITE_BATCH = 1 << 16
/** The most bytes one UTF-16 code unit takes in UTF-8. */
const MOST_BYTES_PER_UNIT = 3

/** Parts encoded into one buffer, reused for every write: a report of tens of megabytes allocates 64 KiB, not its size again. */
async function writeParts(file: string, parts: Iterable<string>): Promise<void> {
  const handle = await open(file, 'w')
  try {
    const writeAll = async (bytes: Buffer, length: number): Promise<void> => {
      for (let done = 0; done < length;) done += (await handle.write(bytes, done, length - done)).bytesWritten
    }
    const batch = Buffer.allocUnsafe(WRITE_BATCH)
    let used = 0
    for (const part of parts) {
      if (used + part.length * MOST_BYTES_PER_UNIT > WRITE_BATCH) {
        await writeAll(batch, used)
        used = 0
      }
      if (part.length * MOST_BYTES_PER_UNIT > WRITE_BATCH) {
        const bytes = Buffer.from(part, 'utf8')
        await writeAll(bytes, bytes.length)
      } else {
        used += batch.write(part, used, 'utf8')
      }
    }
    await writeAll(batch, used)
  } finally {
    await handle.close()
  }
}
