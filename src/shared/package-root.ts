import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/**
 * The folder of the installed fitconform package (where suites/ and schemas/ live), found by walking
 * up from this module: the same code runs from src/ under vitest and from dist/src/ after the build.
 */
export function packageRoot(): string {
  if (cached) return cached
  let folder = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(folder, 'package.json')
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'fitconform'
    ) {
      cached = folder
      return folder
    }
    const parent = dirname(folder)
    if (parent === folder)
      throw new Error('cannot find the fitconform package folder above ' + fileURLToPath(import.meta.url))
    folder = parent
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version
}
