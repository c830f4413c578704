import type { ReportedRunResult } from '../../model/reported-result.js'
import type { Reporter } from '../../model/reporter.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import { REPORT_FILE_NAMES } from './report-file-names.js'

const JSON_REPORT_FILE = REPORT_FILE_NAMES['json']!

/**
 * `results.json`: the RunResult as it is (it carries `schemaVersion`), documented by
 * schemas/report.schema.json. Our own shape rather than a borrowed one (Playwright's JSONReport,
 * Jest's): the scenario/step/assertion structure is the product. Tokens were redacted by the runner,
 * personal data masked by the finalize stage unless asked otherwise.
 */
export function createJsonReporter(options: FileReporterOptions): Reporter & { readonly name: 'json' } {
  let written: string | undefined
  return {
    name: 'json',
    printsToStdout: () => false,
    outputFiles: () => (written ? [written] : []),
    async onRunEnd(result: ReportedRunResult) {
      written = await writeReportFile(options, JSON_REPORT_FILE, `${JSON.stringify(result, null, 2)}\n`)
    },
  }
}
