import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../reference-server/index.js'
import { runCli } from '../helpers/cli.js'
import { expectGolden, stabilise } from '../helpers/golden.js'
import { DEMO_TOKEN_FLAGS } from '../helpers/reference-process.js'
import { makeTempDir } from '../helpers/temp-dir.js'

const GOLDEN = join(import.meta.dirname, 'golden')

/**
 * The console and Markdown output of `fitconform run` against a reference-server mutant, compared
 * with test/e2e/golden/<mutant>/ after stabilise(): what a user reads first, as it stands in review.
 */
describe.each([
  { mutant: 'user-id-string', suite: 'suites/user' },
  { mutant: 'has-map-boolean', suite: 'suites/activity' },
])('fitconform run against the $mutant mutant', ({ mutant, suite }) => {
  let server: RunningReferenceServer
  let outcome: Awaited<ReturnType<typeof runCli>>
  let outputDir: string

  beforeAll(async () => {
    server = await startReferenceServer({ mutant, onInternalError: () => undefined })
    outputDir = makeTempDir('fitconform-golden-')
    // One scenario at a time: the console prints a failed scenario when it ends, so order would follow timing.
    const args = [
      'run',
      suite,
      '--base-url',
      server.url,
      ...DEMO_TOKEN_FLAGS,
      '--concurrency',
      '1',
      '--reporter',
      'console,markdown',
      '--output-dir',
      outputDir,
    ]
    outcome = await runCli(args)
  }, 120_000)
  afterAll(() => server.close())

  it('fails the run (exit 1)', () => {
    expect(outcome.code, outcome.stderr).toBe(1)
  })

  it('prints the console report of the golden file', () => {
    expectGolden(join(GOLDEN, mutant, 'console.txt'), stabilise(outcome.stdout))
  })

  it('writes the Markdown summary of the golden file', () => {
    expectGolden(join(GOLDEN, mutant, 'summary.md'), stabilise(readFileSync(join(outputDir, 'summary.md'), 'utf8')))
  })
})
