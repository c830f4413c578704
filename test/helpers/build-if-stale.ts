// Vitest global setup: the e2e tests spawn the built CLI in dist/, so a plain `npx vitest run` after an
// edit would test yesterday's build. Rebuild when any compiled source is newer than the newest file in
// dist/; after `npm run build` (as `npm test` does first) this finds dist/ fresh and builds nothing.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './cli.js'

// What tsconfig.build.json compiles, and the files that shape the output (the CLI bundle's script included).
const SOURCE_FOLDERS = ['src', 'proxy', 'reference-server', 'bench']
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-cli.mjs']

/** Newest modification time (ms) of the files under `folder` whose names pass `keep`; 0 when there are none. */
function newestMtime(folder: string, keep: (name: string) => boolean): number {
  let newest = 0
  let entries
  try {
    entries = readdirSync(folder, { withFileTypes: true, recursive: true })
  } catch {
    return 0 // no such folder (dist/ before the first build)
  }
  for (const entry of entries) {
    if (!entry.isFile() || !keep(entry.name)) continue
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

export default function setup(): void {
  const sources = Math.max(
    ...SOURCE_FOLDERS.map((folder) => newestMtime(join(REPO_ROOT, folder), (name) => name.endsWith('.ts'))),
    ...CONFIG_FILES.map((file) => statSync(join(REPO_ROOT, file)).mtimeMs),
  )
  const built = newestMtime(join(REPO_ROOT, 'dist'), (name) => name.endsWith('.js') || name.endsWith('.cjs'))
  if (sources <= built) return
  console.log('dist/ is older than the sources: running `npm run build` before the tests')
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' })
}
