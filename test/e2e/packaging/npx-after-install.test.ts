// The README's first two commands, `npm ci` then `npx fitconform run`, build once (issue 28, problem 5).
// npm links a project whose `bin` names the command into its npx cache and runs `prepare` on it
// (scripts/prepare.mjs says why); that `prepare` used to build everything again. Here: a copy of the
// working tree as `npm ci` leaves it (this repository's node_modules linked, its fresh dist/ copied),
// then the README's command through real npx, offline, with an npx cache of its own. dist/ must come
// out untouched and the npx cache must hold no copy of the project, only npm's link to it.
// ~15-20 s on two busy cores (the default suite runs once); before the fix the rebuild alone took 20 s or more.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/cli.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

/** Every file under `folder` with its size and modification time, in a stable order. */
function snapshot(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name)
      const { size, mtimeMs } = statSync(file)
      return `${file.slice(folder.length)} ${size} ${mtimeMs}`
    })
    .sort()
}

/** The files of the working tree git would clone (tracked and new, not ignored), relative to the root. */
function workingTreeFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
  expect(listed.status, listed.stderr).toBe(0)
  return listed.stdout.split('\0').filter((file) => file !== '')
}

/** The environment without the npm_* variables of the npm that started vitest, so npx sees only its own. */
function npxEnv(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|FITCONFORM_)/i.test(name)))
  return {
    ...env,
    NO_COLOR: '1',
    npm_config_cache: cache,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  }
}

describe('npx fitconform run after npm ci', () => {
  it('runs the built CLI without building again: dist/ untouched, no copy of the project in the npx cache', () => {
    const project = join(makeTempDir('fitconform-npx-'), 'fitconform')
    for (const file of workingTreeFiles()) {
      try {
        mkdirSync(dirname(join(project, file)), { recursive: true })
        cpSync(join(REPO_ROOT, file), join(project, file))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error // deleted, not yet committed
      }
    }
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir')
    cpSync(join(REPO_ROOT, 'dist'), join(project, 'dist'), { recursive: true, preserveTimestamps: true })
    const cache = join(dirname(project), 'npm-cache')
    const before = snapshot(join(project, 'dist'))

    const run = spawnSync('npx', ['fitconform', 'run'], {
      cwd: project,
      env: npxEnv(cache),
      encoding: 'utf8',
      timeout: 120_000,
    })

    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/\d+ passed, 0 failed/)
    const after = snapshot(join(project, 'dist'))
    const changed = after.filter((line) => !before.includes(line))
    expect(changed.length, `dist/ was written again, e.g. ${changed.slice(0, 3).join('; ')}`).toBe(0)
    expect(after.length).toBe(before.length)
    // npm's npx cache: one folder per command, whose node_modules holds the package. A link back to the
    // project is how npm finds its bin; a folder would be a copy (an install of the project).
    const npx = join(cache, '_npx')
    for (const entry of existsSync(npx) ? readdirSync(npx) : []) {
      const installed = join(npx, entry, 'node_modules', 'fitconform')
      expect(lstatSync(installed).isSymbolicLink()).toBe(true)
      expect(resolve(dirname(installed), readlinkSync(installed))).toBe(project)
    }
  }, 180_000)
})
