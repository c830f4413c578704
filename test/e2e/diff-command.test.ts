// `fitconform diff` as users run it: the built CLI against embedded servers, exit codes and --fail-on.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/temp-dir.js'

const ONE_SCENARIO = ['--grep', 'activity-edit-ignores-uri']

describe('fitconform diff', () => {
  it('exits 1 on a mutant, naming its rule, and writes the Markdown summary', async () => {
    const dir = makeTempDir('fitconform-diff-cli-')
    const outcome = await runCli(
      [
        'diff',
        '--mutant',
        'no-last-modified-on-read',
        ...ONE_SCENARIO,
        '--reporter',
        'console,markdown',
        '--output-dir',
        dir,
      ],
      { cwd: dir },
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toContain('LAST-MODIFIED-READ')
    expect(outcome.stdout).toMatch(/1 conformance difference,/)
    expect(await readFile(join(dir, 'diff.md'), 'utf8')).toContain('| LAST-MODIFIED-READ | failed | passed |')
  }, 60_000)

  it('exits 0 on open choices by default and 1 with --fail-on open-choice', async () => {
    const dir = makeTempDir('fitconform-diff-cli-')
    const args = ['diff', '--reference-mode', 'other-choices', ...ONE_SCENARIO, '--output-dir', dir]
    const lenient = await runCli(args, { cwd: dir })
    expect(lenient.code).toBe(0)
    expect(lenient.stdout).toContain('error-status  §7 rule 6')
    expect((await runCli([...args, '--fail-on', 'open-choice'], { cwd: dir })).code).toBe(1)
  }, 60_000)

  it('refuses --recording together with --reference-url (exit 2, nothing sent)', async () => {
    const outcome = await runCli(['diff', '--recording', 'x.ndjson', '--reference-url', 'http://127.0.0.1:9'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain('--recording and --reference-url both name the reference')
  })
})
