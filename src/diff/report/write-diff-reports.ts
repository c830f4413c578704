import { appendFile } from 'node:fs/promises'
import { writeReportFile } from '../../report/files/output-path.js'
import type { Screen } from '../../model/reporter.js'
import type { DiffResult } from '../diff-result.js'
import { renderDiffConsole } from './diff-console.js'
import { renderDiffHtml } from './diff-html.js'
import { renderDiffMarkdown } from './diff-markdown.js'

/** The formats of `diff --reporter`, and the file each writes in the output folder unless `name:file` says otherwise. */
const DIFF_REPORTERS: Readonly<Record<string, string | undefined>> = {
  console: undefined,
  json: 'diff.json',
  markdown: 'diff.md',
  html: 'diff.html',
}

export interface DiffReportOptions {
  readonly outputDir: string
  readonly screen: Screen
  /** `$GITHUB_STEP_SUMMARY`: the Markdown is appended there too. */
  readonly stepSummaryFile?: string
  readonly cwd?: string
}

/** Parses `console,json:out/diff.json`; an unknown name throws with the names there are. */
export function parseDiffReporters(list: string): { name: string; file?: string }[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const [name = '', ...rest] = item.split(':')
      if (!Object.hasOwn(DIFF_REPORTERS, name))
        throw new Error(`unknown diff reporter "${name}"; diff writes ${Object.keys(DIFF_REPORTERS).join(', ')}`)
      return rest.length > 0 ? { name, file: rest.join(':') } : { name }
    })
}

/** Prints or writes each report; returns the files written. */
export async function writeDiffReports(
  result: DiffResult,
  reporters: readonly { name: string; file?: string }[],
  options: DiffReportOptions,
): Promise<string[]> {
  const written: string[] = []
  for (const reporter of reporters) {
    const text = render(result, reporter.name, options.screen.colors)
    if (reporter.name === 'console') {
      options.screen.out(text)
      continue
    }
    written.push(
      await writeReportFile(
        {
          outputDir: options.outputDir,
          ...(reporter.file ? { output: reporter.file } : {}),
          ...(options.cwd ? { cwd: options.cwd } : {}),
        },
        DIFF_REPORTERS[reporter.name]!,
        text,
      ),
    )
    if (reporter.name === 'markdown' && options.stepSummaryFile)
      await appendFile(options.stepSummaryFile, `${text}\n`, 'utf8')
  }
  return written
}

function render(result: DiffResult, name: string, colors: boolean): string {
  if (name === 'console') return renderDiffConsole(result, { colors })
  if (name === 'markdown') return renderDiffMarkdown(result)
  if (name === 'html') return renderDiffHtml(result)
  return JSON.stringify(result, null, 2) + '\n'
}
