import { describe, expect, it } from 'vitest'
import { wantsColor } from '../../../src/api/screen.js'
import { runCli } from '../../helpers/cli.js'

describe('colour follows the conventions: --color/--no-color, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ TERM: 'dumb' }, true, false],
  ])('%j on a TTY=%s: colour %s', (env, isTTY, expected) => {
    expect(wantsColor(env, isTTY)).toBe(expected)
  })

  it('takes --color over NO_COLOR and --no-color over FORCE_COLOR, on a pipe', async () => {
    const coloured = await runCli(['--color', 'run', 'suites/user', '--reporter', 'console'], {
      env: { NO_COLOR: '1' },
    })
    expect(coloured.stdout).toContain('\u001b[')
    const plain = await runCli(['--no-color', 'run', 'suites/user', '--reporter', 'console'], {
      env: { FORCE_COLOR: '1' },
    })
    expect(plain.stdout).not.toContain('\u001b[')
  }, 60_000)
})
