import { afterAll, beforeAll, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../reference-server/index.js'
import { describeFuzzProgress, fuzzSummaryLine } from '../../src/cli/fuzz-command.js'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/temp-dir.js'

/* Issue 28 problem 10: fuzz's console says what it did, plainly: no "0 scenarios", no "run(s)", no stale "0 failing" beside FAILED. */

let server: RunningReferenceServer
beforeAll(async () => {
  server = await startReferenceServer({ mutant: 'notes-line-breaks-dropped', onInternalError: () => undefined })
})
afterAll(() => server.close())

it('ends a fuzz run that found a failure with one plain line, and prints no scenario count it does not have', async () => {
  const outputDir = makeTempDir('fitconform-fuzz-summary-')
  const outcome = await runCli([
    'fuzz',
    '--base-url',
    server.url,
    '--token',
    'demo-token-alice',
    '--seed',
    '1',
    '--runs',
    '30',
    '--output-dir',
    outputDir,
    '--reporter',
    'console',
  ])
  expect(outcome.code, outcome.stderr).toBe(1)
  expect(outcome.stderr).toMatch(
    /^fuzz: FAILED CREATE-RECORDS after \d+ sequences? \(seed 1\), shrunk to \d+ steps? in \d+ more runs?$/m,
  )
  expect(outcome.stdout.split('\n')[0]).toBe(`fitconform fuzz against ${new URL(server.url).href}`)
  const everything = outcome.stdout + outcome.stderr
  for (const misleading of ['0 scenarios', '(s)', '0 failing', 'By spec section', 'Rule coverage'])
    expect(everything).not.toContain(misleading)
}, 120_000)

it.each([
  { outcome: { seed: 7, runs: 1 }, line: 'fuzz: 1 sequence, seed 7: no failure' },
  { outcome: { seed: 7, runs: 100 }, line: 'fuzz: 100 sequences, seed 7: no failure' },
  {
    outcome: { seed: 1, runs: 22, failure: { rule: 'CREATE-RECORDS', steps: 2, foundAt: 2 } },
    line: 'fuzz: FAILED CREATE-RECORDS after 2 sequences (seed 1), shrunk to 2 steps in 20 more runs',
  },
])('closing line: $line', ({ outcome, line }) => {
  expect(fuzzSummaryLine(outcome)).toBe(line)
})

it.each([
  {
    progress: { runs: 40, failures: 0, shrinking: false, msLeft: 19_500 },
    line: 'fuzz: 40 sequences, no failure yet, 20s left',
  },
  { progress: { runs: 25, failures: 7, shrinking: true }, line: 'fuzz: 25 runs, a failure found, shrinking it' },
])('progress line: $line', ({ progress, line }) => {
  expect(describeFuzzProgress(progress)).toBe(line)
})
