import type { RunResult } from '../model/result.js'
import type { Reporter } from './reporter.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import { maskPersonalData } from './personal-data.js'

const JSON_REPORT_FILE = 'results.json'

/**
 * `results.json`: the RunResult as it is (it carries `schemaVersion`), documented by
 * schemas/report.schema.json. Our own shape rather than a borrowed one (Playwright's JSONReport,
 * Jest's): the scenario/step/assertion structure is the product. Tokens were redacted by the runner;
 * personal data is masked here unless asked otherwise.
 */
export function createJsonReporter(options: FileReporterOptions): Reporter & { readonly name: 'json' } {
  return {
    name: 'json',
    printsToStdout: () => false,
    async onRunEnd(result: RunResult) {
      const shown = options.showPersonalData ? result : maskPersonalData(result)
      await writeReportFile(options, JSON_REPORT_FILE, `${JSON.stringify(shown, null, 2)}\n`)
    },
  }
}
