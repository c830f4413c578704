// One road: every flag of `fitconform run` reaches an option of the library's run(), so the
// CLI can be nothing but flags → run() → exit code. A new flag without its option fails here.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Option } from 'commander'
import { createProgram } from '../../../src/cli/program.js'
import { resolveRunOptions, type RunFlags } from '../../../src/cli/options/run-options.js'
import { toRunOptions } from '../../../src/cli/run-command.js'
import type { RunOptions } from '../../../src/api/run.js'
import { RUN_DEFAULTS } from '../../../src/api/defaults.js'
import { DEFAULT_MAX_BODY_BYTES } from '../../../src/execute/http/http-client.js'
import { DEFAULT_SURVEY_MAX_ACTIVITIES } from '../../../src/spec/survey/survey-account.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

const BASE = ['--base-url', 'http://127.0.0.1:9', '--token', 'base-token-aaaaaaaa']

const folder = makeTempDir('fitconform-run-options-')
const caFile = join(folder, 'ca.pem')
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')
const configFile = join(folder, 'fitconform.config.yaml')
writeFileSync(configFile, 'values:\n  equipment: rowing-machine\n')

/** What a flag's value is when its text is not a number (flags that take a number get `7`). */
const SAMPLE_TEXT: Record<string, string> = {
  baseUrl: 'http://other.example:8080/api',
  token: 'sample-token-bbbbbbbb',
  otherToken: 'sample-token-cccccccc',
  revokedToken: 'sample-token-dddddddd',
  revokedDeleteToken: 'sample-token-eeeeeeee',
  limitedToken: 'sample-token-ffffffff',
  config: configFile,
  reporter: 'json',
  outputDir: join(folder, 'out'),
  grep: 'feeds',
  tag: 'smoke',
  shard: '1/2',
  ca: caFile,
  expectFailures: join(folder, 'known.yaml'),
}

function runCommandOf(program = createProgram()) {
  return program.commands.find((command) => command.name() === 'run')!
}

/** `fitconform run <args>` as commander parses it, resolved, as the library's run() options. */
async function libraryOptions(args: readonly string[]): Promise<RunOptions> {
  const program = createProgram().configureOutput({ writeErr: () => undefined })
  let flags: RunFlags | undefined
  runCommandOf(program).action((_paths: string[], parsed: RunFlags) => {
    flags = parsed
  })
  await program.parseAsync(['run', ...args], { from: 'user' })
  return toRunOptions([], resolveRunOptions(flags!))
}

function argsOf(option: Option): string[] {
  const flag = option.long!
  if (!option.required && !option.optional) return [flag]
  return [flag, SAMPLE_TEXT[option.attributeName()] ?? '7']
}

function shown(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof URL
      ? inner.href
      : inner && typeof inner === 'object' && 'source' in inner
        ? String(inner.source)
        : inner,
  )
}

/** The run() options whose value the args changed from the baseline run. */
async function changedOptions(args: readonly string[]): Promise<string[]> {
  const baseline = await libraryOptions(BASE)
  const given = await libraryOptions([...BASE, ...args])
  const keys = new Set([...Object.keys(baseline), ...Object.keys(given)] as (keyof RunOptions)[])
  return [...keys].filter((key) => shown(baseline[key]) !== shown(given[key]))
}

describe('fitconform run and the library run()', () => {
  const options = runCommandOf().options

  it('reads the flags from commander', () => {
    expect(options.length).toBeGreaterThan(25)
  })

  for (const option of options) {
    it(`maps ${option.long} to an option of run()`, async () => {
      expect(await changedOptions(argsOf(option))).not.toEqual([])
    })
  }

  it('keeps one defaults object in step with the constants the engine uses', () => {
    expect(RUN_DEFAULTS.maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES)
    expect(RUN_DEFAULTS.surveyMaxActivities).toBe(DEFAULT_SURVEY_MAX_ACTIVITIES)
  })
})

describe('the help texts read the one defaults object', () => {
  const DESCRIBED = { timeoutMs: 12345, concurrency: 77, outputDir: 'elsewhere' }

  /** Each command's option descriptions, built while RUN_DEFAULTS holds other values. */
  function descriptionsWithOtherDefaults(): Map<string, string> {
    const defaults = RUN_DEFAULTS as unknown as Record<string, unknown>
    const saved = { ...defaults }
    Object.assign(defaults, DESCRIBED)
    try {
      const descriptions = new Map<string, string>()
      for (const command of createProgram().commands)
        for (const option of command.options) descriptions.set(`${command.name()} ${option.long}`, option.description)
      return descriptions
    } finally {
      Object.assign(defaults, saved)
    }
  }

  it.each([
    ['run --timeout', '(default 12345)'],
    ['fuzz --timeout', '(default 12345)'],
    ['cleanup --timeout', '(default 12345)'],
    ['diff --timeout', '(default 12345)'],
    ['selftest --timeout', 'with --fuzz 12345'],
    ['run --concurrency', '(default 77;'],
    ['diff --concurrency', '(default 77)'],
    ['run --output-dir', '(default elsewhere/)'],
    ['diff --output-dir', '(default elsewhere/)'],
  ])('%s says %s', (option, text) => {
    expect(descriptionsWithOtherDefaults().get(option)).toContain(text)
  })
})
