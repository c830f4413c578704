import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createConsoleReporter } from './console-reporter.js'
import { createJsonReporter } from './files/json-reporter.js'
import { createJunitReporter } from './files/junit-reporter.js'
import type { FileReporterOptions } from './files/output-path.js'
import type { Reporter, Screen } from '../model/reporter.js'
import { importModule } from '../shared/import-module.js'

/** What the CLI hands to every reporter factory. */
export interface ReporterContext {
  /** `--output-dir`, relative to `cwd`. */
  outputDir: string
  screen: Screen
  /** `--show-personal-data`. */
  showPersonalData: boolean
  /** `--verbose`: the console prints every failure. */
  verbose?: boolean
  /** Defaults to process.cwd(); output paths and module paths are relative to it. */
  cwd?: string
  /** Defaults to process.env; the markdown reporter reads GITHUB_STEP_SUMMARY from it. */
  env?: Readonly<Record<string, string | undefined>>
}

export { DEFAULT_REPORTERS } from './default-reporters.js'

/** One `--reporter` item: `junit:out/junit.xml` → { name: 'junit', option: 'out/junit.xml' }. */
export interface ReporterSpec {
  readonly name: string
  readonly option?: string
}

type Factory = (context: ReporterContext, option: string | undefined) => Reporter | Promise<Reporter>

/**
 * The default reporters (console, json, junit) are loaded with the CLI; html and markdown only when asked for, as
 * start-up counts on every run.
 */
const BUILTIN: Readonly<Record<string, Factory>> = {
  console: (context, option) =>
    createConsoleReporter({ screen: context.screen, mode: consoleMode(option), verbose: context.verbose ?? false }),
  json: (context, option) => createJsonReporter(fileOptions(context, option)),
  junit: (context, option) => createJunitReporter(fileOptions(context, option)),
  html: async (context, option) =>
    (await import('./html/html-reporter.js')).createHtmlReporter(fileOptions(context, option)),
  markdown: async (context, option) =>
    (await import('./files/markdown-reporter.js')).createMarkdownReporter({
      ...fileOptions(context, option),
      stepSummaryFile: (context.env ?? process.env)['GITHUB_STEP_SUMMARY'] || undefined,
    }),
}

export const BUILTIN_REPORTERS: readonly string[] = Object.keys(BUILTIN)

/**
 * `console,json:out/results.json,./my-reporter.js` → reporters in that order. A name that is not
 * built in is imported as a module path (relative to cwd) or package whose default export is a
 * Reporter object or a factory `(context & { output?: string }) => Reporter`. When no reporter
 * prints to stdout, the console reporter is added in summary mode.
 * @example await createReporters('json,junit:out/junit.xml', { outputDir: 'reports', screen, showPersonalData: false })
 */
export async function createReporters(list: string, context: ReporterContext): Promise<Reporter[]> {
  const reporters: Reporter[] = []
  for (const spec of parseReporterList(list)) {
    const factory = BUILTIN[spec.name]
    reporters.push(factory ? await factory(context, spec.option) : await loadCustomReporter(spec, context))
  }
  if (!reporters.some((reporter) => reporter.printsToStdout?.() === true)) {
    reporters.push(
      createConsoleReporter({ screen: context.screen, mode: 'summary', verbose: context.verbose ?? false }),
    )
  }
  return reporters
}

export function parseReporterList(list: string): ReporterSpec[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const colon = item.indexOf(':')
      if (colon <= 0) return { name: item }
      const option = item.slice(colon + 1).trim()
      return option === '' ? { name: item.slice(0, colon) } : { name: item.slice(0, colon), option }
    })
}

async function loadCustomReporter(spec: ReporterSpec, context: ReporterContext): Promise<Reporter> {
  const cwd = context.cwd ?? process.cwd()
  const isPath = spec.name.startsWith('.') || path.isAbsolute(spec.name)
  const specifier = isPath ? pathToFileURL(path.resolve(cwd, spec.name)).href : spec.name
  let module: { default?: unknown }
  try {
    module = (await importModule(specifier)) as { default?: unknown }
  } catch (cause) {
    const known = BUILTIN_REPORTERS.join(', ')
    const notFound = (cause as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND'
    if (notFound && !isPath)
      throw new Error(
        `unknown reporter "${spec.name}"; the reporters are ${known}, or a module path such as ./my-reporter.js`,
        { cause },
      )
    if (notFound)
      throw new Error(
        `reporter module ${spec.name} not found (relative to ${cwd}); the built-in reporters are ${known}`,
        { cause },
      )
    throw new Error(`cannot load reporter "${spec.name}": ${describe(cause)}`, { cause })
  }
  const exported = module.default
  const options = { ...context, ...(spec.option === undefined ? {} : { output: spec.option }) }
  if (typeof exported === 'function') {
    const isClass = Function.prototype.toString.call(exported).startsWith('class')
    const Constructor = exported as new (options: unknown) => Reporter
    return isClass ? new Constructor(options) : (exported as (options: unknown) => Reporter)(options)
  }
  if (typeof exported === 'object' && exported !== null) return exported as Reporter
  throw new Error(`reporter "${spec.name}" has no default export (a Reporter object or a factory function)`)
}

function fileOptions(context: ReporterContext, option: string | undefined): FileReporterOptions {
  return {
    outputDir: context.outputDir,
    output: option,
    cwd: context.cwd,
  }
}

function consoleMode(option: string | undefined): 'full' | 'summary' {
  if (option === undefined || option === 'full') return 'full'
  if (option === 'summary') return 'summary'
  throw new Error(`unknown console reporter mode "${option}" (expected full or summary)`)
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
