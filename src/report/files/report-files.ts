import { rm } from 'node:fs/promises'
import path from 'node:path'
import { parseReporterList } from '../registry.js'
import { REPORT_FILE_NAMES } from './report-file-names.js'

/**
 * A run that ends before any scenario (exit 2 or 3) removes the files its reporters would have
 * written: CI publishes whatever is in the output folder, and an earlier run's green report must not
 * pass for this one's. Custom reporters' files are theirs to manage. Returns the paths removed.
 */
export async function removeReportFiles(
  reporterList: string,
  outputDir: string,
  cwd: string = process.cwd(),
): Promise<string[]> {
  const files = parseReporterList(reporterList).flatMap((spec) => {
    const name = REPORT_FILE_NAMES[spec.name]
    return name === undefined ? [] : [path.resolve(cwd, spec.option ?? path.join(outputDir, name))]
  })
  const removed: string[] = []
  for (const file of files) {
    const existed = await rm(file).then(
      () => true,
      () => false,
    )
    if (existed) removed.push(file)
  }
  return removed
}
