import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/temp-dir.js'

/** `fitconform serve --mutant has-map-boolean`: has_map of an activity is a JSON boolean (§2.3 says text). */
let mutant: ChildProcess
let mutantUrl: string
let folder: string

beforeAll(async () => {
  folder = makeTempDir('fitconform-known-')
  mutant = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin/fitconform.js'), 'serve', '--port', '0', '--mutant', 'has-map-boolean'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  mutantUrl = await new Promise<string>((resolve) => {
    let output = ''
    mutant.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve(match[1]!)
    })
  })
})
afterAll(() => mutant.kill('SIGTERM'))

const args = (url: string, file: string, outputDir: string) => [
  'run',
  'suites/activity',
  '--grep',
  'lifecycle',
  '--base-url',
  url,
  '--token',
  'demo-token-alice',
  '--expect-failures',
  file,
  '--output-dir',
  outputDir,
  '--reporter',
  'console,json,junit',
]

it('gates on new failures only: a known failure is reported but does not fail the run', async () => {
  const file = join(folder, 'known.yaml')
  await writeFile(
    file,
    '- rule: ACTIVITY-HAS-MAP-TEXT\n  reason: has_map is still a boolean\n  link: https://tracker.example/FIT-12\n',
  )
  const outputDir = join(folder, 'gated')
  const outcome = await runCli(args(mutantUrl, file, outputDir))
  expect(outcome.stdout).toMatch(/expected failure/)
  expect(outcome.code).toBe(0)
  const junit = await readFile(join(outputDir, 'junit.xml'), 'utf8')
  expect(junit).toContain('<property name="rule" value="ACTIVITY-HAS-MAP-TEXT"/>')
})

it('fails the run when a known failure passes, so the list stays honest', async () => {
  const file = join(folder, 'stale.yaml')
  await writeFile(file, '- scenario: activity-lifecycle\n  reason: was broken once\n')
  // No --base-url: the embedded reference server, which conforms.
  const outcome = await runCli([
    'run',
    'suites/activity',
    '--grep',
    'lifecycle',
    '--expect-failures',
    file,
    '--output-dir',
    join(folder, 'stale'),
    '--reporter',
    'console',
  ])
  expect(outcome.stdout).toMatch(/unexpectedly passed/)
  expect(outcome.code).toBe(1)
})

it('says once per stale rule entry that it now passes, instead of a line per scenario naming the rule', async () => {
  const file = join(folder, 'stale-rule.yaml')
  await writeFile(file, '- rule: FEED-PAGE-SIZE\n  reason: pageSize was ignored\n')
  const outputDir = join(folder, 'stale-rule')
  const outcome = await runCli([
    'run',
    'suites',
    '--expect-failures',
    file,
    '--output-dir',
    outputDir,
    '--reporter',
    'console,junit,markdown',
  ])
  expect(outcome.code).toBe(1)
  expect(outcome.stdout).toContain('Unexpectedly passed (1)')
  expect(outcome.stdout).toContain(
    '✘ FEED-PAGE-SIZE now passes: remove this entry from the known-failures file (pageSize was ignored)',
  )
  expect(outcome.stdout).not.toMatch(/: passed, but is listed as a known failure/)
  expect(outcome.stdout.trimEnd().split('\n').at(-1)).toMatch(/1 unexpectedly passed/)
  const junit = await readFile(join(outputDir, 'junit.xml'), 'utf8')
  expect(junit.match(/E_UNEXPECTED_PASS/g)).toHaveLength(1)
  expect(await readFile(join(outputDir, 'summary.md'), 'utf8')).toContain('FEED-PAGE-SIZE now passes')
}, 120_000)

it('rejects a known-failures file that names an unknown rule, with file:line:col (exit 2)', async () => {
  const file = join(folder, 'typo.yaml')
  await writeFile(file, '- rule: ACTIVITY-HAS-MAP-TXT\n  reason: typo\n')
  const outcome = await runCli(args(mutantUrl, file, join(folder, 'typo')))
  expect(outcome.code).toBe(2)
  expect(outcome.stderr).toMatch(/typo\.yaml:1:\d+/)
})
