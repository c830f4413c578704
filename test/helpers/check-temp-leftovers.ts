// Vitest global setup: every run gets its own temp folder (TMPDIR, inherited by the test workers and
// the CLI processes they spawn); at the end, anything left in it is a test that did not clean up
// after itself, and the run fails (exit code 1) naming it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const runTemp = mkdtempSync(join(tmpdir(), 'fitconform-test-run-'))
  const previous = process.env.TMPDIR
  process.env.TMPDIR = runTemp
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    const leftovers = readdirSync(runTemp)
    rmSync(runTemp, { recursive: true, force: true })
    if (leftovers.length > 0) {
      // A throw here is only printed by vitest ("error during close"); the exit code is what CI sees.
      console.error(
        `\nFAIL: tests left ${leftovers.length} temp folder(s) behind: ${leftovers.join(', ')}; create them with makeTempDir (test/helpers/temp-dir.ts) or remove them in afterAll`,
      )
      process.exitCode = 1
    }
  }
}
