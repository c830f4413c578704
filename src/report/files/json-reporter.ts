import type { ReportedRunResult } from '../../model/reported-result.js'
import type { Reporter } from '../../model/reporter.js'
import { jsonTextParts } from './json-text.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import { REPORT_FILE_NAMES } from './report-file-names.js'

const JSON_REPORT_FILE = REPORT_FILE_NAMES['json']!
const SPREAD: ReadonlySet<string> = new Set(['scenarios'])

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
      // Written a scenario at a time: the same bytes as `JSON.stringify(result, null, 2)`, without the whole text in memory.
      written = await writeReportFile(options, JSON_REPORT_FILE, withNewline(jsonTextParts(result, SPREAD)))
    },
  }
}

function* withNewline(parts: Iterable<string>): Generator<string> {
  yield* parts
  yield '\n'
}
