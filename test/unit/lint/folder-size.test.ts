import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Rooms that say what they hold: past ~15 files a folder is a list to scroll, not a room, and its name no longer
// says what is inside. A folder that grows past the limit is split by subject (docs/layout.md names the rooms).
// Fixture folders are exempt: they hold data a test reads, one file per case, and are named by the test that reads them.
const root = fileURLToPath(new URL('../../..', import.meta.url))
const LIMIT = 15
const CODE_FOLDERS = ['src', 'proxy', 'reference-server', 'test']
const EXEMPT = new Set(['fixtures', 'node_modules'])

/** Every folder under `folder` (itself included) with the number of files directly inside it. */
function fileCounts(folder: string): { folder: string; files: number }[] {
  const entries = readdirSync(folder, { withFileTypes: true })
  const here = { folder: relative(root, folder), files: entries.filter((entry) => entry.isFile()).length }
  const below = entries
    .filter((entry) => entry.isDirectory() && !EXEMPT.has(entry.name))
    .flatMap((entry) => fileCounts(join(folder, entry.name)))
  return [here, ...below]
}

describe('folder size', () => {
  it(`no folder of ${CODE_FOLDERS.join(', ')} holds more than ${LIMIT} files`, () => {
    const crowded = CODE_FOLDERS.flatMap((folder) => fileCounts(join(root, folder)))
      .filter(({ files }) => files > LIMIT)
      .map(({ folder, files }) => `${folder}: ${files} files`)
    expect(crowded).toEqual([])
  })

  it('counts the files of a folder, not of its rooms', () => {
    const counts = fileCounts(join(root, 'reference-server'))
    const top = counts.find(({ folder }) => folder === 'reference-server')!
    const rooms = counts.filter(({ folder }) => folder.startsWith('reference-server/'))
    expect(rooms.length).toBeGreaterThan(0)
    expect(top.files).toBeLessThan(counts.reduce((sum, { files }) => sum + files, 0))
  })
})
