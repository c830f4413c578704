import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import Module from 'node:module'
import { join } from 'node:path'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { REPO_ROOT, runCli, type CliOutcome } from '../../helpers/cli.js'
import { stabilise } from '../../helpers/golden.js'
import { DEMO_TOKEN_FLAGS } from '../../helpers/reference-process.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

// bin/fitconform.js compiles dist/cli/fitconform.cjs with the code cache the build recorded
// (scripts/bundle-cli.mjs). A cache V8 refuses costs every run its compile time without a word, so
// the build's cache must fit the build's bundle, compiled the way the bin compiles it.
describe('the built CLI', () => {
  it('has a code cache that V8 accepts for its bundle', () => {
    const bundle = join(REPO_ROOT, 'dist', 'cli', 'fitconform.cjs')
    const script = new vm.Script(Module.wrap(readFileSync(bundle, 'latin1')), {
      filename: bundle,
      cachedData: readFileSync(`${bundle}.cache`),
    })
    expect(script.cachedDataRejected).toBe(false)
  })
})

/** The CLI as tsc wrote it (dist/src/cli/main.js), without the bundle and its code cache. */
function runPlainCli(args: readonly string[]): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
    delete env['FORCE_COLOR']
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

// The bundle is a speed-up of the CLI tsc writes: whatever a user runs, both must say the same.
describe('the bundled CLI and the plain dist/src CLI', () => {
  it.each([['--help'], ['--version'], ['run', '--help'], ['rules'], ['rules', '--json'], ['no-such-command']])(
    'print the same for `fitconform %s`',
    async (...args) => {
      const [bundled, plain] = await Promise.all([runCli(args), runPlainCli(args)])
      expect(bundled.stdout.length + bundled.stderr.length).toBeGreaterThan(0)
      expect(bundled).toEqual(plain)
    },
  )

  describe('`run` against a mutant', () => {
    let server: RunningReferenceServer
    const outcomes: { outcome: CliOutcome; outputDir: string }[] = []

    beforeAll(async () => {
      server = await startReferenceServer({ mutant: 'user-id-string', onInternalError: () => undefined })
      for (const run of [runCli, runPlainCli]) {
        const outputDir = makeTempDir('fitconform-bundle-')
        // One scenario at a time, so that the console's order does not follow timing.
        const args = ['run', 'suites/user', '--base-url', server.url, ...DEMO_TOKEN_FLAGS, '--concurrency', '1']
        outcomes.push({
          outcome: await run([...args, '--reporter', 'console,markdown', '--output-dir', outputDir]),
          outputDir,
        })
      }
    }, 120_000)
    afterAll(() => server.close())

    it('exits the same and prints the same console report', () => {
      const [bundled, plain] = outcomes.map(({ outcome, outputDir }) => ({
        code: outcome.code,
        stdout: stabilise(outcome.stdout),
        stderr: stabilise(outcome.stderr.replaceAll(outputDir, '<output-dir>')),
      }))
      expect(bundled!.code).toBe(1)
      expect(bundled).toEqual(plain)
    })

    it('writes the same Markdown summary', () => {
      const [bundled, plain] = outcomes.map(({ outputDir }) =>
        stabilise(readFileSync(join(outputDir, 'summary.md'), 'utf8')),
      )
      expect(bundled).toContain('user')
      expect(bundled).toBe(plain)
    })
  })
})
