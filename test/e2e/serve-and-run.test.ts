import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import {
  DEMO_TOKEN_FLAGS,
  snapshotAccount,
  startReferenceProcess,
  type ReferenceProcess,
} from '../helpers/reference-process.js'
import { makeTempDir } from '../helpers/temp-dir.js'

let server: ReferenceProcess
beforeAll(async () => {
  server = await startReferenceProcess()
})
afterAll(() => server.stop())

it('passes every scenario against `fitconform serve` in another process and leaves both accounts as it found them', async () => {
  const before = [
    await snapshotAccount(server.url, 'demo-token-alice'),
    await snapshotAccount(server.url, 'demo-token-bob'),
  ]
  const outputDir = makeTempDir('fitconform-serve-')
  const outcome = await runCli([
    'run',
    '--base-url',
    server.url,
    ...DEMO_TOKEN_FLAGS,
    '--output-dir',
    outputDir,
    '--reporter',
    'console,json,junit,html,markdown',
  ])
  expect(outcome.stdout).toMatch(/\d+ passed, 0 failed, 0 skipped/)
  expect(outcome.code).toBe(0)
  expect(outcome.stderr).toMatch(/Account changes: created (\d+), deleted \1;/)
  const after = [
    await snapshotAccount(server.url, 'demo-token-alice'),
    await snapshotAccount(server.url, 'demo-token-bob'),
  ]
  expect(after).toEqual(before)

  // Tokens the user gave never reach a file or a line we wrote, by value (the demo tokens stand in for real ones here).
  const written = await Promise.all(
    (await readdir(outputDir, { recursive: true })).map((name) =>
      readFile(join(outputDir, name), 'utf8').catch(() => ''),
    ),
  )
  // The four reports; the ledger, with nothing left owing, is gone (ownership.test.ts reads it while the run goes on).
  expect((await readdir(outputDir)).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md'])
  const everything = [outcome.stdout, outcome.stderr, ...written].join('\n')
  for (const token of DEMO_TOKEN_FLAGS.filter((_, index) => index % 2 === 1)) expect(everything).not.toContain(token)
  expect(everything).toContain('[REDACTED token]')
}, 180_000)
