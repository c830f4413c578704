import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test needs Debian's chromium: it has its own script (npm run test:browser).
    exclude: ['test/browser/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration files start real servers and wait on one-second HTTP dates.
    maxWorkers: 2,
    // Rebuild dist/ when stale (the e2e tests spawn it); give the run its own TMPDIR and fail on leftovers.
    globalSetup: ['test/helpers/build-if-stale.ts', 'test/helpers/check-temp-leftovers.ts'],
    // Removes the folders each test file made with makeTempDir.
    setupFiles: ['test/helpers/remove-temp-dirs.ts'],
    // The proxy records on a worker thread, which Node loads itself: teach it our TypeScript sources.
    execArgv: ['--import', fileURLToPath(new URL('./test/helpers/register-typescript.js', import.meta.url))],
  },
})
