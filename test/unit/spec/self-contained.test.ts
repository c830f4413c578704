// A plain clone must be enough: the spec lives in the repository, and nothing the project reads or
// points its reader at lies outside it (a `../shared/spec/...` path works only in the original workspace).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/cli.js'

const SPEC = 'docs/spec/fitness-data-service.md'
const SCANNED = [
  'README.md',
  'action.yml',
  'package.json',
  'docs',
  'src',
  'test',
  'suites',
  'scripts',
  'bench',
  'proxy',
  'reference-server',
  'schemas',
  '.ci',
]
/** The workspace's shared folder, by a relative or an absolute path (src/shared/ is the repository's own). */
const OUTSIDE = /(\.\.\/)+shared\/spec|\/work\/shared\//
const TEXT = /\.(ts|js|mjs|cjs|md|yaml|yml|json|sh)$|^run$/

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path).flatMap((name) =>
    name === 'node_modules' || name === 'golden' ? [] : filesUnder(join(path, name)),
  )
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

describe('the README is the short manual a user reads', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
  // The benchmark notes are on their way to their own page; they do not count against the manual.
  const manual = readme.split('\n## Benchmarks\n')[0]!

  it('has the parts a user needs, in a few hundred lines', () => {
    for (const heading of [
      '## Quick start',
      '## Running against a server',
      '### Exit codes',
      '### GitHub Actions and GitLab CI',
      '## Recording proxy',
      '## Troubleshooting',
      '### Colour',
    ]) {
      expect(manual).toContain(`\n${heading}\n`)
    }
    expect(manual.split('\n').length).toBeLessThan(400)
  })

  it('links only to files that exist in the repository', () => {
    const links = [...readme.matchAll(/\]\(((?:docs|suites|schemas)\/[^)#\s]+)\)/g)].map((match) => match[1]!)
    expect(links.length).toBeGreaterThan(5)
    expect(links.filter((link) => !existsSync(join(REPO_ROOT, link)))).toEqual([])
  })

  it('shows every command .ci/run runs', () => {
    const commands = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^(npm|npx) /.test(line))
    expect(commands.length).toBeGreaterThan(4)
    for (const command of commands) expect(readme).toContain(command)
  })
})
