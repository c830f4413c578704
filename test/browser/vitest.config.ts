// `npm run test:browser` = `vitest run --config test/browser/vitest.config.ts`: the HTML report in a
// real headless Chromium (Debian's `chromium` package: `apt-get install -y chromium`). Kept apart from
// the main suite so `npm test` passes on a machine without a browser.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
