#!/usr/bin/env node
// The published entry point: the CLI is compiled to dist/ by `npm run build` (run by `npm ci`'s prepare).
import('../dist/src/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/cli/main.js')) {
    console.error('fitconform is not built yet: run `npm ci` (or `npm run build`) in the fitconform folder first.')
    process.exit(2)
  }
  throw error
})
