import { spawn } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../helpers/cli.js'
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

async function accounts(): Promise<string[]> {
  return [await snapshotAccount(server.url, 'demo-token-alice'), await snapshotAccount(server.url, 'demo-token-bob')]
}

/** Starts a run and sends `signal` once the ledger shows the run has created something. */
async function interruptedRun(outputDir: string, signal: NodeJS.Signals): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'bin/fitconform.js'),
      'run',
      '--base-url',
      server.url,
      ...DEMO_TOKEN_FLAGS,
      '--output-dir',
      outputDir,
      '--reporter',
      'console',
    ],
    {
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  let running = true
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running = false
      resolve(code)
    }),
  )
  let created = 0
  for (let waited = 0; waited < 60_000 && running && created < 3; waited += 100) {
    await sleep(100)
    const ledgers = (await readdir(outputDir)).filter((name) => name.startsWith('ledger-'))
    const text = ledgers.length > 0 ? await readFile(join(outputDir, ledgers[0]!), 'utf8') : ''
    created = (text.match(/"type":"created"/g) ?? []).length
  }
  if (created < 3) {
    // Without data created before the signal, the test would prove nothing about cleanup.
    child.kill('SIGKILL')
    await exited
    throw new Error(
      `precondition not reached: the run ${running ? 'was still' : 'had already exited'} with ${created} created resource(s) in its ledger, 3 needed before sending ${signal}`,
    )
  }
  child.kill(signal)
  return exited
}

it('leaves the account as it found it when a run is interrupted with SIGINT midway', async () => {
  const before = await accounts()
  const outputDir = makeTempDir('fitconform-sigint-')
  const code = await interruptedRun(outputDir, 'SIGINT')
  expect(code).toBe(130) // the shell's code for SIGINT, given only after the cleanup
  expect(await accounts()).toEqual(before)
}, 120_000)

it('finishes the cleanup with `fitconform cleanup` after a run was killed hard', async () => {
  const before = await accounts()
  const outputDir = makeTempDir('fitconform-sigkill-')
  await interruptedRun(outputDir, 'SIGKILL')
  expect(await accounts()).not.toEqual(before) // the kill left created activities behind
  // A ledger file is not trusted to name the server: without --base-url, cleanup shows it and asks.
  const asks = await runCli(['cleanup', '--output-dir', outputDir, ...DEMO_TOKEN_FLAGS.slice(0, 4)])
  expect(asks.code).toBe(2)
  expect(asks.stderr).toContain(server.url)
  const cleanup = await runCli([
    'cleanup',
    '--output-dir',
    outputDir,
    '--base-url',
    server.url,
    ...DEMO_TOKEN_FLAGS.slice(0, 4),
  ])
  expect(cleanup.code).toBe(0)
  expect(await accounts()).toEqual(before)
  const again = await runCli([
    'cleanup',
    '--output-dir',
    outputDir,
    '--base-url',
    server.url,
    ...DEMO_TOKEN_FLAGS.slice(0, 4),
  ])
  expect(again.stdout).toContain('Nothing to clean up')
}, 120_000)

it('fuzz: exits 130 after undoing the sequence in flight when interrupted with SIGINT', async () => {
  const before = await accounts()
  const outputDir = makeTempDir('fitconform-fuzz-sigint-')
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'bin/fitconform.js'),
      'fuzz',
      '--time',
      '5m',
      '--seed',
      '1',
      '--base-url',
      server.url,
      ...DEMO_TOKEN_FLAGS.slice(0, 4),
      '--output-dir',
      outputDir,
      '--reporter',
      'console',
    ],
    {
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  let created = false
  for (let waited = 0; waited < 60_000 && !created && child.exitCode === null; waited += 100) {
    await sleep(100)
    const ledgers = (await readdir(outputDir)).filter((name) => name.startsWith('ledger-'))
    for (const ledger of ledgers)
      if ((await readFile(join(outputDir, ledger), 'utf8')).includes('"type":"created"')) created = true
  }
  if (!created) {
    child.kill('SIGKILL')
    await exited
    throw new Error(
      'precondition not reached: the fuzz run created nothing before the signal, so the test would prove nothing about cleanup',
    )
  }
  child.kill('SIGINT')
  expect(await exited).toBe(130)
  expect(await accounts()).toEqual(before)
}, 120_000)
