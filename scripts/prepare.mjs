// npm's `prepare` script: builds, except when `npx fitconform …` (npm exec) runs it on a project that is
// built already.
//
// Why: `npx fitconform` in this folder finds `fitconform` in this package.json's `bin`, so npm (10 and
// 11, libnpmexec) links this folder into its npx cache (~/.npm/_npx/<hash>/node_modules/fitconform, a
// symbolic link to here) to get a bin link, and Arborist runs `prepare` on a linked folder. The first
// `npx fitconform run` after `npm ci` then built everything a second time, silently (npm pipes the
// output). npm marks the command that runs a script in `npm_command`: `ci` and
// `install` build as ever; `exec` builds only when no build is here (e.g. after `npm ci --ignore-scripts`).
// `npm run build` always builds.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** The file bin/fitconform.js runs; the build writes it last but for its code cache. */
const BUILT_CLI = 'dist/cli/fitconform.cjs'

if (process.env.npm_command === 'exec' && existsSync(BUILT_CLI)) process.exit(0)

// npm_execpath is npm's own script when npm runs this; `npm` from PATH when run by hand.
const npm = process.env.npm_execpath
const build =
  npm === undefined || npm === ''
    ? spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
    : spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
if (build.error !== undefined) {
  console.error(`prepare: cannot start npm run build: ${build.error.message}`)
  process.exit(1)
}
process.exit(build.status ?? 1)
