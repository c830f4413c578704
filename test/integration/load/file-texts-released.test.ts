// A loaded scenario keeps nothing of its file's text (src/load/load-suites.ts): an id or a title read
// from a file is, in V8, a view into the file's whole text, which would stay in memory for the whole
// run; the load keeps copies instead. Seen in a heap snapshot of a process that loaded three files.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/cli.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

/** A line of each file's text that no scenario holds: found in the heap only if the whole text is. */
const FILE_ONLY = '# a comment that only the file text holds'
/** The same in a file the child keeps the text of, to show that a kept text is found. */
const CONTROL_ONLY = '# a comment of the file whose text is kept'

function scenarioFile(file: number, comment = FILE_ONLY): string {
  const lines = [comment, 'scenarios:']
  for (let index = 0; index < 20; index++)
    lines.push(
      `  - id: held-texts-${file}-${index}`,
      '    title: GET /user answers 200 with a numeric userID',
      '    rules: [USER-READ]',
      '    steps:',
      '      - name: read the entry point of the service',
      '        request: { method: GET, url: /user }',
      '        expect: { status: 200 }',
    )
  return lines.join('\n') + '\n'
}

describe('loadSuites', () => {
  it('keeps no file text alive once the scenarios are loaded', () => {
    const folder = makeTempDir('held-texts-')
    for (const file of [1, 2, 3]) writeFileSync(join(folder, `file-${file}.yaml`), scenarioFile(file))
    const control = join(makeTempDir('held-texts-control-'), 'control.yaml')
    writeFileSync(control, scenarioFile(4, CONTROL_ONLY))
    const output = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        join(REPO_ROOT, 'test/helpers/register-typescript.js'),
        join(REPO_ROOT, 'test/helpers/texts-after-load.ts'),
        folder,
        control,
        FILE_ONLY,
        CONTROL_ONLY,
      ],
      { encoding: 'utf8' },
    )
    const { scenarios, counts } = JSON.parse(output) as { scenarios: number; counts: Record<string, number> }
    expect(scenarios).toBe(60)
    // A text that is kept is found (the control), and none of the three loaded ones is.
    expect(counts[CONTROL_ONLY]).toBe(1)
    expect(counts[FILE_ONLY]).toBe(0)
  })
})
