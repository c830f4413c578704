import type { Screen } from '../model/reporter.js'

/** The terminal as reporters see it: colour only on a TTY and never under NO_COLOR (no-color.org). */
export function processScreen(env: NodeJS.ProcessEnv = process.env): Screen {
  const isTTY = process.stdout.isTTY === true
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    colors: isTTY && !('NO_COLOR' in env) && env['TERM'] !== 'dumb',
    isTTY,
    width: process.stdout.columns ?? 100,
  }
}
