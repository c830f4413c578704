// A plain clone must be enough: the spec lives in the repository, and nothing the project reads or
// points its reader at lies outside it (a `../shared/spec/...` path works only in the original workspace).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/cli.js'

const SPEC = 'docs/spec/fitness-data-service.md'
const SCANNED = ['README.md', 'action.yml', 'package.json', 'docs', 'src', 'test', 'suites', 'scripts', 'bench', 'proxy', 'reference-server', 'schemas', '.ci']
/** The workspace's shared folder, by a relative or an absolute path (src/shared/ is the repository's own). */
const OUTSIDE = /(\.\.\/)+shared\/spec|\/work\/shared\//
const TEXT = /\.(ts|js|mjs|cjs|md|yaml|yml|json|sh)$|^run$/

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path).flatMap((name) => (name === 'node_modules' || name === 'golden' ? [] : filesUnder(join(path, name))))
}

it('holds the spec, which starts with its own title', () => {
  expect(readFileSync(join(REPO_ROOT, SPEC), 'utf8')).toMatch(/^# Fitness Data Service Interface\n/)
})

it('names no file outside the repository (the workspace shared/spec), in code, tests, suites or documentation', () => {
  const outside = SCANNED.flatMap((entry) => filesUnder(join(REPO_ROOT, entry)))
    .filter((file) => TEXT.test(file.split('/').pop()!) && file !== import.meta.filename)
    .filter((file) => OUTSIDE.test(readFileSync(file, 'utf8')))
    .map((file) => relative(REPO_ROOT, file))
  expect(outside).toEqual([])
})

it('points the README reader at the spec inside the repository', () => {
  expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n').slice(0, 10).join('\n')).toContain(SPEC)
})
