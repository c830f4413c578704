import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/temp-dir.js'

// The readability floor `npm run lint` holds (issue 29 point 4): code wider than Prettier's 120 columns
// (.prettierrc.json), a comment past 140, and an exported value nothing imports each fail it.
const root = fileURLToPath(new URL('../../..', import.meta.url))

describe('npm run lint', () => {
  it('runs ESLint, Prettier and knip', async () => {
    const { scripts } = (await import('../../../package.json', { with: { type: 'json' } })).default
    expect(scripts.lint).toBe('eslint . && prettier --check . && knip --include exports,nsExports,duplicates')
  })

  it('fails a comment line over 140 characters, and lets a long text stay whole', async () => {
    const eslint = new ESLint({ cwd: root })
    const comment = `// ${'word '.repeat(30)}\nexport const a = 1\n`
    const text = `export const b = '${'word '.repeat(30)}'\n`
    const lengths = async (code: string): Promise<string[]> =>
      (await eslint.lintText(code, { filePath: join(root, 'src/shared/long-line.ts') }))[0]!.messages
        .filter((message) => message.ruleId === 'max-len')
        .map((message) => message.message)
    expect(await lengths(comment)).toEqual([expect.stringContaining('Maximum allowed is 140')])
    expect(await lengths(text)).toEqual([])
  })

  it('fails code Prettier would wrap', async () => {
    const options = { ...(await prettier.resolveConfig(join(root, 'src/x.ts'))), filepath: join(root, 'src/x.ts') }
    const wide = `export const sum = (${Array.from({ length: 14 }, (_, i) => `value${i}: number`).join(', ')}) => 0\n`
    expect(await prettier.check(wide, options)).toBe(false)
    expect(await prettier.check(await prettier.format(wide, options), options)).toBe(true)
  })

  it('fails an exported value nothing imports (knip)', () => {
    const project = makeTempDir('fitconform-knip-')
    mkdirSync(join(project, 'src'))
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'k', type: 'module', private: true }))
    writeFileSync(join(project, 'knip.json'), JSON.stringify({ entry: ['src/main.ts'], project: ['src/**/*.ts'] }))
    writeFileSync(join(project, 'src/main.ts'), "import { used } from './lib.js'\nconsole.log(used)\n")
    writeFileSync(join(project, 'src/lib.ts'), 'export const used = 1\nexport const forgotten = 2\n')
    const knip = join(root, 'node_modules/.bin/knip')
    // knip loads its config with jiti, which caches under the temp folder: keep that cache in the project's.
    const outcome = spawnSync(knip, ['--include', 'exports,nsExports,duplicates', '--no-progress'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: project },
    })
    expect(outcome.stdout).toContain('forgotten')
    expect(outcome.stdout).not.toMatch(/^used\s/m)
    expect(outcome.status).not.toBe(0)
  })
})
