import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createProgram } from '../../../src/cli/program.js'
import { resolveRunOptions, type RunFlags, type RunOptions } from '../../../src/cli/options/run-options.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

const ENV_NAMES = ['FITCONFORM_BASE_URL', 'FITCONFORM_TOKEN', 'FITCONFORM_OTHER_TOKEN'] as const

/** `fitconform run <args>` as commander parses it, with these environment variables, then resolved. */
async function runOptions(
  args: readonly string[],
  env: Partial<Record<(typeof ENV_NAMES)[number], string>> = {},
): Promise<RunOptions> {
  Object.assign(process.env, env)
  const program = createProgram().configureOutput({ writeErr: () => undefined })
  let flags: RunFlags | undefined
  program.commands
    .find((command) => command.name() === 'run')!
    .action((_paths: string[], parsed: RunFlags) => {
      flags = parsed
    })
  await program.parseAsync(['run', ...args], { from: 'user' })
  return resolveRunOptions(flags!)
}

function configFile(text: string): string {
  const file = join(makeTempDir('fitconform-config-'), 'fitconform.config.yaml')
  writeFileSync(file, text)
  return file
}

afterEach(() => {
  for (const name of ENV_NAMES) delete process.env[name]
})

describe('flag > environment > config file > default', () => {
  const config = configFile(
    'baseUrl: http://127.0.0.1:3003\ntokens:\n  token: config-token-cccc\n  other-token: config-other-cccc\ntimeout: 5000\n',
  )

  it('takes the flag over the environment and the config file', async () => {
    const options = await runOptions(
      ['--config', config, '--base-url', 'http://127.0.0.1:3001', '--token', 'flag-token-aaaa'],
      { FITCONFORM_BASE_URL: 'http://127.0.0.1:3002', FITCONFORM_TOKEN: 'env-token-bbbb' },
    )
    expect(options.baseUrl?.href).toBe('http://127.0.0.1:3001/')
    expect(options.tokens.token).toBe('flag-token-aaaa')
  })

  it('takes the environment over the config file', async () => {
    const options = await runOptions(['--config', config], {
      FITCONFORM_BASE_URL: 'http://127.0.0.1:3002',
      FITCONFORM_TOKEN: 'env-token-bbbb',
    })
    expect(options.baseUrl?.href).toBe('http://127.0.0.1:3002/')
    expect(options.tokens).toMatchObject({ token: 'env-token-bbbb', 'other-token': 'config-other-cccc' })
  })

  it('takes the config file over the default, and the default when nothing is given', async () => {
    expect((await runOptions(['--config', config])).timeoutMs).toBe(5000)
    expect((await runOptions(['--config', config])).baseUrl?.href).toBe('http://127.0.0.1:3003/')
    const bare = await runOptions(['--config', configFile('strict: false\n')])
    expect(bare.timeoutMs).toBe(10_000)
    expect(bare.baseUrl).toBeUndefined()
  })

  it('refuses a FITCONFORM_BASE_URL that is not a URL, as it refuses the flag', async () => {
    await expect(runOptions([], { FITCONFORM_BASE_URL: 'not a url' })).rejects.toThrow(/--base-url <url>.*not a URL/s)
  })
})

describe('a server named without a token', () => {
  it('is a usage error naming --token and FITCONFORM_TOKEN, whether the token is missing or empty', async () => {
    for (const env of [{}, { FITCONFORM_TOKEN: '' }]) {
      await expect(runOptions(['--base-url', 'http://127.0.0.1:3001'], env)).rejects.toThrow(
        /--token or set FITCONFORM_TOKEN/,
      )
    }
    await expect(runOptions(['--config', configFile('baseUrl: http://127.0.0.1:3003\n')])).rejects.toMatchObject({
      diagnostic: { code: 'E_USAGE' },
    })
  })

  it('is not refused without a server: the embedded reference server brings its demo tokens', async () => {
    expect((await runOptions([])).tokens).toEqual({})
  })
})
