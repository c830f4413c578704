import { Option } from 'commander'
import { RUN_DEFAULTS } from '../../api/defaults.js'
import { parseBaseUrl, parsePositiveInt } from './option-parsers.js'

/**
 * The options `run` shares with `fuzz` and `cleanup`, declared once: flag, environment variable and parser.
 * A command may say in its own words what the option means to it; the default texts read RUN_DEFAULTS.
 */
const SHARED = {
  baseUrl: (text = 'server under test, may carry a path prefix') =>
    new Option('--base-url <url>', text).env('FITCONFORM_BASE_URL').argParser(parseBaseUrl),
  token: (text = 'a normal user with all permissions') => new Option('--token <token>', text).env('FITCONFORM_TOKEN'),
  otherToken: (text = 'a second user') => new Option('--other-token <token>', text).env('FITCONFORM_OTHER_TOKEN'),
  config: (text = 'config file (default: fitconform.config.ts or .yaml when present)') =>
    new Option('--config <file>', text),
  reporter: (
    text = `comma-separated reporters: console, json, junit, html, markdown, or a module path; name:file sets the output (default ${RUN_DEFAULTS.reporters})`,
  ) => new Option('--reporter <list>', text),
  outputDir: (text = `where report files go (default ${RUN_DEFAULTS.outputDir}/)`) =>
    new Option('--output-dir <dir>', text),
  timeout: (text = `per-request timeout in milliseconds (default ${RUN_DEFAULTS.timeoutMs})`) =>
    new Option('--timeout <ms>', text).argParser(parsePositiveInt),
  readOnly: (text = 'run only scenarios that change nothing (GET/HEAD), for production accounts') =>
    new Option('--read-only', text),
  ca: (text = 'PEM file of certificate authorities to trust') => new Option('--ca <file>', text),
  insecure: (text = 'do not verify TLS certificates (staging servers)') => new Option('--insecure', text),
  showPersonalData: (
    text = 'keep personal data (GPS points, profile name, location, birthday, pictures) in report files',
  ) => new Option('--show-personal-data', text),
} satisfies Record<string, (text?: string) => Option>

type SharedName = keyof typeof SHARED

/** One shared option, in the command's own words when `text` is given. */
export function sharedOption(name: SharedName, text?: string): Option {
  return SHARED[name](text)
}

/** Several shared options in their default words, in the order given (the order of `--help`). */
export function sharedOptions(...names: readonly SharedName[]): Option[] {
  return names.map((name) => SHARED[name]())
}
