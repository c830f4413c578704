// Everything specific to the Fitness Data Service lives in src/spec/: the engine under the rest of src/
// knows HTTP, YAML, schemas and checks. Checked the way issue 14 states it: no file outside src/spec/
// names the activity path or a rule id of suites/rules.yaml, not even in a comment.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = join(import.meta.dirname, '../../..')
const ruleIds = (parse(readFileSync(join(root, 'suites/rules.yaml'), 'utf8')) as { rules: { id: string }[] }).rules.map(
  (rule) => rule.id,
)
// A rule id stands alone: CREATE-STATUS must not be found inside CREATE-STATUS-X, nor the other way round.
const fitnessWords = [/\/fitnessActivities/, ...ruleIds.map((id) => new RegExp(`(?<![A-Z0-9-])${id}(?![A-Z0-9-])`))]

/** `file:line: text` for each line of the files under `folder` that names the activity path or a rule id. */
function mentions(folder: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = join(entry.parentPath, entry.name)
    const shown = relative(root, file).split(sep).join('/')
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (fitnessWords.some((word) => word.test(line))) found.push(`${shown}:${index + 1}: ${line.trim()}`)
      })
  }
  return found
}

describe('the engine knows no fitness', () => {
  it('reads the rule ids from the catalogue', () => {
    expect(ruleIds).toContain('BODY-IS-JSON')
    expect(ruleIds.length).toBeGreaterThan(50)
  })

  it('finds the activity path and the rule ids where they belong, in src/spec/', () => {
    const inSpec = mentions('src/spec')
    expect(inSpec.some((line) => line.includes('/fitnessActivities'))).toBe(true)
    expect(inSpec.some((line) => line.startsWith('src/spec/rule-ids.ts') && line.includes("'BODY-IS-JSON'"))).toBe(true)
  })

  it('finds neither anywhere else under src/', () => {
    const outside = mentions('src').filter((line) => !line.startsWith('src/spec/'))
    expect(outside).toEqual([])
  })

  it('is not reached by an import from the stages that hold no API knowledge, however indirect', () => {
    const reached = (from: string) => reachable(from).filter((file) => file.startsWith('src/spec/'))
    for (const folder of NO_SPEC_FOLDERS) {
      const files = readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
      expect(files.length, folder).toBeGreaterThan(0)
      for (const file of files) expect(reached(file), file).toEqual([])
    }
  })
})

// The bottom of the pipeline and the reporters: data, pure planning and output, no Fitness Data Service in them.
const NO_SPEC_FOLDERS = ['src/model', 'src/shared', 'src/plan', 'src/report', 'src/expression']

/** Every src/ file `file` imports, directly or through others (relative imports, types included). */
function reachable(file: string, seen = new Set<string>()): string[] {
  for (const match of readFileSync(join(root, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = join(dirname(file), match[1]!).split(sep).join('/').replace(/\.js$/, '.ts')
    if (seen.has(target) || !target.endsWith('.ts')) continue
    seen.add(target)
    reachable(target, seen)
  }
  return [...seen]
}
