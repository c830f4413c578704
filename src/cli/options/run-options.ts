import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConformanceError } from '../../model/diagnostic.js'
import { TOKEN_ROLES, type TokenRole } from '../../model/scenario.js'
import type { Shard } from '../../plan/plan-run.js'
import { DEFAULT_CONFIG_VALUES } from '../../spec/config-defaults.js'
import { readConfigFile } from './config-file.js'
import { parseGrep, type GrepFilter } from '../../plan/grep-filter.js'
import { RUN_DEFAULTS } from '../../api/defaults.js'
import { MIN_SCRUBBED_SECRET_LENGTH } from '../../shared/secrets.js'
import { missingMainToken } from '../../execute/require-token.js'

/** The flags of `fitconform run` as commander hands them over (names are a public contract for CI scripts). */
export interface RunFlags {
  baseUrl?: URL
  token?: string
  otherToken?: string
  revokedToken?: string
  revokedDeleteToken?: string
  limitedToken?: string
  config?: string
  reporter?: string
  outputDir?: string
  grep?: string
  maxBodyBytes?: number
  tag?: string[]
  shard?: Shard
  concurrency?: number
  timeout?: number
  bail?: boolean
  strict?: boolean
  readOnly?: boolean
  /** --survey / --no-survey; undefined: decided by what narrows the run (run-command.ts). */
  survey?: boolean
  surveyMaxActivities?: number
  failOnSkip?: boolean
  ca?: string
  insecure?: boolean
  expectFailures?: string
  showPersonalData?: boolean
  verbose?: boolean
  /** --max-polling in seconds. */
  maxPolling?: number
}

/**
 * Everything a run needs, after flags, environment and config file are merged, in that order of
 * precedence: commander puts an environment variable into its flag when the flag is not given
 * (`Option.env()` in program.ts), so here a flag's value already stands for both.
 */
export interface RunOptions {
  readonly baseUrl?: URL
  readonly tokens: Partial<Record<TokenRole, string>>
  readonly reporter?: string
  readonly outputDir: string
  readonly grep?: GrepFilter
  /** A response body past this many bytes blocks its step (not judged). */
  readonly maxBodyBytes: number
  readonly tags: readonly string[]
  readonly shard?: Shard
  readonly concurrency: number
  readonly timeoutMs: number
  readonly bail: boolean
  readonly strict: boolean
  readonly readOnly: boolean
  /** --survey / --no-survey as given; undefined when neither was. */
  readonly survey?: boolean
  readonly surveyMaxActivities: number
  readonly failOnSkip: boolean
  readonly ca?: string
  readonly insecure: boolean
  readonly values: Readonly<Record<string, string>>
  readonly expectFailures?: string
  readonly showPersonalData: boolean
  /** --verbose: the console lists every failure, not one evidence block per broken rule. */
  readonly verbose: boolean
  readonly maxPollingMs: number
}

interface ConfigFile {
  baseUrl?: string
  tokens?: Partial<Record<TokenRole, string>>
  values?: Record<string, string>
  timeout?: number
  concurrency?: number
  reporter?: string
  outputDir?: string
  strict?: boolean
}

const CONFIG_KEYS = ['baseUrl', 'tokens', 'values', 'timeout', 'concurrency', 'reporter', 'outputDir', 'strict']

const FLAG_OF_ROLE: Record<TokenRole, keyof RunFlags> = {
  token: 'token',
  'other-token': 'otherToken',
  'revoked-token': 'revokedToken',
  'revoked-delete-token': 'revokedDeleteToken',
  'limited-token': 'limitedToken',
}

export function resolveRunOptions(flags: RunFlags): RunOptions {
  const config = readConfig(flags.config)
  const tokens: Partial<Record<TokenRole, string>> = {}
  for (const role of TOKEN_ROLES) {
    const value = (flags[FLAG_OF_ROLE[role]] as string | undefined) ?? config.tokens?.[role]
    if (value) tokens[role] = value
    // Refused rather than warned about: a token that short cannot be scrubbed from what we write by value.
    if (value && value.length < MIN_SCRUBBED_SECRET_LENGTH) {
      throw usage(
        `the ${role} is ${value.length} character${value.length === 1 ? '' : 's'} long: fitconform refuses tokens shorter than ${MIN_SCRUBBED_SECRET_LENGTH} characters, because it could not find and scrub one from reports and logs without also scrubbing ordinary text`,
      )
    }
  }
  const baseUrl =
    flags.baseUrl ?? (config.baseUrl ? parseUrlSetting(config.baseUrl, 'baseUrl in the config') : undefined)
  // An empty CI secret (a fork's pull request, a misspelt name) must not turn into a green run that tested nothing.
  const noToken = missingMainToken(baseUrl, tokens)
  if (noToken) throw usage(noToken)
  return {
    baseUrl,
    tokens,
    ...((flags.reporter ?? config.reporter) ? { reporter: (flags.reporter ?? config.reporter)! } : {}),
    outputDir: flags.outputDir ?? config.outputDir ?? RUN_DEFAULTS.outputDir,
    ...(flags.grep ? { grep: compileGrep(flags.grep) } : {}),
    maxBodyBytes: flags.maxBodyBytes ?? RUN_DEFAULTS.maxBodyBytes,
    tags: flags.tag ?? [],
    shard: flags.shard,
    concurrency: flags.concurrency ?? config.concurrency ?? RUN_DEFAULTS.concurrency,
    timeoutMs: flags.timeout ?? config.timeout ?? RUN_DEFAULTS.timeoutMs,
    bail: flags.bail ?? false,
    strict: flags.strict ?? config.strict ?? false,
    readOnly: flags.readOnly ?? false,
    survey: flags.survey,
    surveyMaxActivities: flags.surveyMaxActivities ?? RUN_DEFAULTS.surveyMaxActivities,
    failOnSkip: flags.failOnSkip ?? false,
    ...(flags.ca ? { ca: readCa(flags.ca) } : {}),
    insecure: flags.insecure ?? false,
    values: config.values ?? {},
    expectFailures: flags.expectFailures,
    showPersonalData: flags.showPersonalData ?? false,
    verbose: flags.verbose ?? false,
    maxPollingMs: (flags.maxPolling ?? RUN_DEFAULTS.maxPollingSeconds) * 1000,
  }
}

function readConfig(file: string | undefined): ConfigFile {
  const source = readConfigFile(file)
  if (!source) return {}
  const data = source.data
  for (const key of Object.keys(data)) {
    if (!CONFIG_KEYS.includes(key))
      throw new ConformanceError({
        code: 'E_CONFIG',
        kind: 'load',
        message: `unknown key "${key}" in the config file; known keys: ${CONFIG_KEYS.join(', ')}`,
        at: source.locate([key], 'key'),
      })
  }
  for (const [key, value] of Object.entries((data['values'] ?? {}) as object)) {
    if (!Object.hasOwn(DEFAULT_CONFIG_VALUES, key)) {
      throw new ConformanceError({
        code: 'E_CONFIG',
        kind: 'load',
        message: `unknown key "${key}" under values; known: ${Object.keys(DEFAULT_CONFIG_VALUES).join(', ')}`,
        at: source.locate(['values', key], 'key'),
      })
    }
    if (typeof value !== 'string' || value === '') {
      throw new ConformanceError({
        code: 'E_CONFIG',
        kind: 'load',
        message: `values.${key} must be a non-empty text`,
        at: source.locate(['values', key]),
      })
    }
  }
  for (const key of ['timeout', 'concurrency'] as const) {
    const value = data[key]
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new ConformanceError({
        code: 'E_CONFIG',
        kind: 'load',
        message: `${key} must be a whole number of 1 or more`,
        at: source.locate([key]),
      })
    }
  }
  for (const role of Object.keys((data['tokens'] ?? {}) as object)) {
    if (!(TOKEN_ROLES as readonly string[]).includes(role)) {
      throw new ConformanceError({
        code: 'E_CONFIG',
        kind: 'load',
        message: `unknown token role "${role}"; roles: ${TOKEN_ROLES.join(', ')}`,
        at: source.locate(['tokens', role], 'key'),
      })
    }
  }
  return data as ConfigFile
}

function readCa(file: string): string {
  try {
    return readFileSync(resolve(file), 'utf8')
  } catch {
    throw usage(`cannot read the CA file ${file}`)
  }
}

function compileGrep(pattern: string): GrepFilter {
  try {
    return parseGrep(pattern)
  } catch (error) {
    throw usage(`--grep ${JSON.stringify(pattern)} is not a valid pattern: ${(error as Error).message}`)
  }
}

function parseUrlSetting(text: string, where: string): URL {
  try {
    const url = new URL(text)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // reported below
  }
  throw usage(`${where}: ${JSON.stringify(text)} is not an http(s) URL`)
}

function usage(message: string): ConformanceError {
  return new ConformanceError({ code: 'E_USAGE', kind: 'load', message })
}
