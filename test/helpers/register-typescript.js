// Passed to the test processes with `--import` (vitest.config.ts `execArgv`), so that every thread
// they start can load TypeScript sources (with jiti): see typescript-hooks.js.
import { register } from 'node:module'

register('./typescript-hooks.js', import.meta.url)
