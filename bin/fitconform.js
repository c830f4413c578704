#!/usr/bin/env node
// The published entry point: the CLI is compiled and bundled into dist/cli/ by `npm run build` (run by `npm ci`'s prepare).
import('../dist/cli/fitconform.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/fitconform.js')) {
    console.error('fitconform is not built yet: run `npm ci` (or `npm run build`) in the fitconform folder first.')
    process.exit(2)
  }
  throw error
})
