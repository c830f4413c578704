// A scenario folder holding a symbolic link back to a folder above it: Node's recursive readdir goes
// round the loop until the path is too long, loading every file dozens of times. Now the loop is a
// usage error (exit 2) naming the link, and each file is found once.
import { cpSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { findScenarioFiles } from '../../../src/load/find-scenario-files.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

const USER_SUITE = fileURLToPath(new URL('../../../suites/user', import.meta.url))

it('names a symbolic link that loops back up as a usage error and finds each file once', async () => {
  const root = makeTempDir('fitconform-links-')
  cpSync(USER_SUITE, join(root, 'user'), { recursive: true })
  mkdirSync(join(root, 'user', 'more'))
  symlinkSync('..', join(root, 'user', 'more', 'up'))
  const { files, diagnostics } = await findScenarioFiles([join(root, 'user')])
  expect(files.length).toBeGreaterThan(0)
  expect(files.every((file) => !file.includes(`${join('more', 'up')}`))).toBe(true)
  expect(diagnostics).toEqual([
    expect.objectContaining({
      code: 'E_USAGE',
      message: expect.stringMatching(
        /more\/up is a symbolic link back to .*, a folder it is inside: a loop; remove the link or name the folders to run/,
      ) as unknown,
    }),
  ])
})

it('follows a symbolic link to a folder elsewhere, once', async () => {
  const root = makeTempDir('fitconform-links-')
  mkdirSync(join(root, 'suite'))
  symlinkSync(USER_SUITE, join(root, 'suite', 'user'))
  const { files, diagnostics } = await findScenarioFiles([join(root, 'suite')])
  expect(diagnostics).toEqual([])
  expect(files.filter((file) => file.endsWith('.yaml')).length).toBeGreaterThan(0)
})
