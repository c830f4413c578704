// The package as a user's project sees it: `fitconform` installed in node_modules (a link to this
// folder, as `npm install ../fitconform` makes), imported by its name through package.json "exports"
// (the built dist/, as npm test builds it first), type-checked by tsc against the published types, and
// configured by a typed fitconform.config.ts.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { REPO_ROOT } from '../../helpers/cli.js'

const USER_SUITE = join(REPO_ROOT, 'suites', 'user', 'user.yaml')
let project: string

function exec(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'fitconform-user-project-'))
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true })
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'fitconform'), 'dir')
  symlinkSync(join(REPO_ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir')
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }))
})
afterAll(() => rmSync(project, { recursive: true, force: true }))

describe('the public API, imported by package name', () => {
  it('runs scenarios through run() with a reporter of the user, and loads suites with loadSuites()', async () => {
    writeFileSync(
      join(project, 'check.mjs'),
      `import { run, loadSuites, BUILTIN_REPORTERS } from 'fitconform'
const seen = []
const loaded = await loadSuites([${JSON.stringify(USER_SUITE)}])
const outcome = await run({ paths: [${JSON.stringify(USER_SUITE)}], outputDir: 'out', reporters: [{ onScenarioEnd: (result) => seen.push(result.id) }] })
console.log(JSON.stringify({ loaded: loaded.scenarios.map((s) => s.id), kind: outcome.kind, exitCode: outcome.exitCode, summary: outcome.result.summary, seen, reporters: BUILTIN_REPORTERS }))
`,
    )
    const { code, stdout, stderr } = await exec(process.execPath, ['check.mjs'])
    expect(code, stderr).toBe(0)
    const printed = JSON.parse(stdout)
    expect(printed).toMatchObject({
      kind: 'ran',
      exitCode: 0,
      summary: { failed: 0 },
      reporters: ['console', 'json', 'junit', 'html', 'markdown'],
    })
    expect(printed.loaded.length).toBeGreaterThan(0)
    expect(printed.seen.sort()).toEqual(printed.loaded.sort())
    expect(printed.summary.passed).toBe(printed.loaded.length)
  }, 120_000)

  it('type-checks a user module and the README example against the published types, and rejects a wrong option type', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    )
    writeFileSync(
      join(project, 'typed.ts'),
      `import { run, defineConfig, type Reporter, type RunResult, type FitconformConfig } from 'fitconform'
const reporter: Reporter = { onRunEnd: (result: RunResult) => void result.summary.passed }
export const config: FitconformConfig = defineConfig({ baseUrl: 'https://staging.example.com', timeout: 5000, tokens: { token: 't' } })
const outcome = await run({ baseUrl: config.baseUrl, reporters: [reporter] })
export const failed: number = outcome.kind === 'ran' ? outcome.result.summary.failed : outcome.exitCode
`,
    )
    // The library manual's example (docs/library.md), as a user would paste it.
    const readme = readFileSync(join(REPO_ROOT, 'docs', 'library.md'), 'utf8')
    const example = /# Using fitconform as a library[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    writeFileSync(join(project, 'readme-example.ts'), `${example}export {}\n`)
    writeFileSync(
      join(project, 'wrong.ts'),
      `import { defineConfig } from 'fitconform'\nexport default defineConfig({ timeout: 'soon' })\n`,
    )
    // One tsc run for all files: the only error must be the wrong option type, so the others are clean.
    const checked = await exec(process.execPath, [
      join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.json',
    ])
    rmSync(join(project, 'wrong.ts'))
    expect(checked.code).not.toBe(0)
    expect(checked.stdout.trim().split('\n')).toEqual([
      "wrong.ts(2,31): error TS2322: Type 'string' is not assignable to type 'number'.",
    ])
  }, 120_000)
})

describe('fitconform.config.ts', () => {
  let server: RunningReferenceServer
  beforeAll(async () => (server = await startReferenceServer()))
  afterAll(() => server.close())

  const cli = (...args: string[]) => exec(process.execPath, [join(REPO_ROOT, 'bin', 'fitconform.js'), ...args])

  it('is read by `fitconform run` when no flag names the server: base URL, tokens and values from the typed file', async () => {
    writeFileSync(
      join(project, 'fitconform.config.ts'),
      `import { defineConfig } from 'fitconform'
const timeout: number = 4000
export default defineConfig({ baseUrl: ${JSON.stringify(server.url)}, tokens: { token: ${JSON.stringify(server.tokens.token)} }, timeout, reporter: 'json' })
`,
    )
    const { code, stderr } = await cli('run', USER_SUITE, '--output-dir', 'config-run')
    rmSync(join(project, 'fitconform.config.ts'))
    expect(code, stderr).toBe(0)
    const result = JSON.parse(readFileSync(join(project, 'config-run', 'results.json'), 'utf8'))
    expect(result.target).toBe(server.url + '/')
    expect(result.summary.failed).toBe(0)
    expect(result.summary.passed).toBeGreaterThan(0)
  }, 120_000)

  it.each([
    [
      'an unknown key',
      `export default { baseUrl: 'http://127.0.0.1:9', timeOut: 5 }\n`,
      'unknown key "timeOut" in the config file',
    ],
    ['a syntax error', `export default { baseUrl: \n`, 'cannot load fitconform.config.ts'],
    [
      'no default export',
      `export const baseUrl = 'http://127.0.0.1:9'\n`,
      'must export its settings as the default export',
    ],
  ])(
    'stops with exit 2 naming the file on %s',
    async (_, text, message) => {
      writeFileSync(join(project, 'fitconform.config.ts'), text)
      const { code, stderr } = await cli('run', USER_SUITE)
      rmSync(join(project, 'fitconform.config.ts'))
      expect(code).toBe(2)
      expect(stderr).toContain(message)
      expect(stderr).toContain('fitconform.config.ts')
    },
    30_000,
  )
})
