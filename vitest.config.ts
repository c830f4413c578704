import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/** What both projects below share. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Removes the folders each test file made with makeTempDir.
  setupFiles: ['test/helpers/remove-temp-dirs.ts'],
  // The proxy records on a worker thread, which Node loads itself: teach it our TypeScript sources.
  execArgv: ['--import', fileURLToPath(new URL('./test/helpers/register-typescript.js', import.meta.url))],
}
// The browser test needs Debian's chromium: it has its own script (npm run test:browser).
const exclude = ['test/browser/**', 'node_modules/**', 'dist/**']

export default defineConfig({
  test: {
    // Two cores, but the integration files mostly wait (one-second HTTP dates, servers they start): with
    // two workers the run kept 1.1-1.3 cores busy (docs/benchmarks.md, "npm test time").
    maxWorkers: 4,
    // Rebuild dist/ when stale (the e2e tests spawn it); give the run its own TMPDIR and fail on leftovers.
    // Here, not in the projects: each project would run them again, each in the last one's TMPDIR.
    globalSetup: ['test/helpers/build-if-stale.ts', 'test/helpers/check-temp-leftovers.ts'],
    projects: [
      {
        // Unit test files leave nothing behind for the next (no vi.mock, no stubbed global, every server
        // closed): they share one process and module graph per worker instead of starting a process each,
        // which took longer than most of them take to run.
        test: { ...common, name: 'unit', include: ['test/unit/**/*.test.ts'], exclude, isolate: false },
      },
      {
        // The rest start reference servers, proxies with their recording threads and the CLI: each file
        // keeps its own process, as before.
        test: { ...common, name: 'integration', include: ['test/**/*.test.ts'], exclude: [...exclude, 'test/unit/**'] },
      },
    ],
  },
})
