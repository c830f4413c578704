import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ReportedRunResult } from '../../model/reported-result.js'
import { packageRoot } from '../../shared/package-root.js'
import { indexRules, type RuleIndex } from '../text/format-diagnostic.js'
import { writeReportFile, type FileReporterOptions } from '../files/output-path.js'
import type { Reporter, RunPlanView } from '../../model/reporter.js'
import { PAGE_FILTER_FUNCTIONS } from './filter.js'
import { buildPageData } from './page-data.js'
import { REPORT_FILE_NAMES } from '../files/report-file-names.js'

const HTML_REPORT_FILE = REPORT_FILE_NAMES['html']!
const TEMPLATE_NAME = 'template.html'
const PAGE_SCRIPT = /<script id="page-script">([\s\S]*?)<\/script>/

export interface HtmlReporterOptions extends FileReporterOptions {
  /** Defaults to the template.html shipped next to this module (see findTemplate). */
  readonly templateFile?: string
}

/** `report.html`: one self-contained page that opens from disk and fetches nothing. */
export function createHtmlReporter(options: HtmlReporterOptions): Reporter & { readonly name: 'html' } {
  let written: string | undefined
  return {
    name: 'html',
    printsToStdout: () => false,
    outputFiles: () => (written ? [written] : []),
    async onRunEnd(result: ReportedRunResult, plan: RunPlanView) {
      const template = await readFile(options.templateFile ?? findTemplate(), 'utf8')
      written = await writeReportFile(
        options,
        HTML_REPORT_FILE,
        renderHtml(template, result, indexRules(plan.rules), { ruleCoverage: !plan.generated }),
      )
    },
  }
}

/**
 * Fills the template: the filter functions (their source text) into the page script, that script's
 * hash into the Content-Security-Policy (so no other script could run), then the title and the data.
 * The data is JSON with every `<` written `\u003c`, so nothing inside it can close its <script>.
 */
export function renderHtml(
  template: string,
  result: ReportedRunResult,
  rules: RuleIndex,
  options: { ruleCoverage?: boolean } = {},
): string {
  const withScript = template.replace('/*__FITCONFORM_FILTER__*/', () => filterScriptSource())
  const script = PAGE_SCRIPT.exec(withScript)?.[1]
  if (script === undefined) throw new Error('the HTML template has no <script id="page-script">')
  const hash = `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`
  const withHash = withScript.replace('__FITCONFORM_SCRIPT_HASH__', () => hash)
  const values: Readonly<Record<string, string>> = {
    TITLE: escapeHtml(`fitconform: ${result.target}`),
    DATA: embedJson(buildPageData(result, rules, options)),
  }
  // One pass, so text coming from the run is never searched for placeholders again.
  return withHash.replace(/__FITCONFORM_(TITLE|DATA)__/g, (_match, key: string) => values[key] ?? '')
}

/** The functions of filter.ts as page script: their compiled source, declarations by name. */
export function filterScriptSource(): string {
  return PAGE_FILTER_FUNCTIONS.map((fn) => fn.toString()).join('\n')
}

export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/**
 * tsc does not copy .html files: the template is found next to this module (src/ under vitest),
 * else in the package's source tree (`src/report/html/template.html`, from dist/).
 */
export function findTemplate(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const nextToModule = path.join(here, TEMPLATE_NAME)
  if (existsSync(nextToModule)) return nextToModule
  const inSources = path.join(packageRoot(), 'src', 'report', 'html', TEMPLATE_NAME)
  if (existsSync(inSources)) return inSources
  throw new Error(`cannot find the HTML report template (looked next to ${here} and in the package's src/report/html/)`)
}
