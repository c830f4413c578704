// Temporary folders for tests, removed when the test file ends (test/helpers/remove-temp-dirs.ts,
// a vitest setup file, runs `removeTempDirs` after every file), so no test leaves one behind.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const created = new Set<string>()

/** A new empty folder under the system temp folder, named `<prefix>XXXXXX`, removed after the test file. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  created.add(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true })
  created.clear()
}
