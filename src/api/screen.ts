import type { Screen } from '../model/reporter.js'

/** The terminal as reporters see it, coloured as wantsColor decides. */
export function processScreen(env: NodeJS.ProcessEnv = process.env): Screen {
  const isTTY = process.stdout.isTTY === true
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    colors: wantsColor(env, isTTY),
    isTTY,
    width: process.stdout.columns ?? 100,
  }
}

/**
 * Colour, in the order the conventions rank it: `--color`/`--no-color` (the CLI turns them into
 * FORCE_COLOR=1/0), then FORCE_COLOR (1, 2, 3 or empty: on; 0 or false: off, as Node and chalk read it),
 * then NO_COLOR of any non-empty value (no-color.org), then TERM=dumb; otherwise colour on a TTY only.
 */
export function wantsColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env['FORCE_COLOR']
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false'
  if ((env['NO_COLOR'] ?? '') !== '') return false
  if (env['TERM'] === 'dumb') return false
  return isTTY
}
