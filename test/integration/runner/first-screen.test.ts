// What a new user sees first, through `fitconform run` in-process (runCommand with a test screen):
// one sentence and exit 3 when the token, the path prefix or the server is wrong; exit 2 when the
// filters select nothing; every report written even when the server nests JSON 100,000 deep or one
// reporter breaks.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { runCommand } from '../../../src/cli/run-command.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { testScreen } from '../../fixtures/report/build-result.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

const USER_SUITE = fileURLToPath(new URL('../../../suites/user', import.meta.url))
let reference: RunningReferenceServer
let loopback: LoopbackServer | undefined
let dir = ''

beforeAll(async () => {
  reference = await startReferenceServer()
})
afterAll(() => reference.close())
afterEach(async () => {
  await loopback?.close()
  loopback = undefined
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = ''
})

async function run(flags: Record<string, unknown>, paths = [USER_SUITE]) {
  dir = await mkdtemp(path.join(tmpdir(), 'fitconform-first-screen-'))
  const screen = testScreen()
  const code = await runCommand(paths, { outputDir: dir, timeout: 2_000, ...flags }, screen)
  return { code, out: screen.stdout(), err: screen.stderr() }
}

it('exits 3 with one sentence when the token is refused', async () => {
  const { code, out, err } = await run({ baseUrl: new URL(reference.url), token: 'not-a-real-token-1234' })
  expect(code).toBe(3)
  expect(err).toContain(`preflight GET ${reference.url}/user with --token failed: the token was refused (401)`)
  expect(err).not.toContain('not-a-real-token-1234')
  expect(out).toBe('')
})

it('exits 3 with one sentence when the base URL is not the API root', async () => {
  loopback = await startLoopbackServer((request, response) => {
    request.resume()
    response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')
  })
  const { code, err } = await run({ baseUrl: new URL(`${loopback.url}/v2`), token: 'some-token-1234' })
  expect(code).toBe(3)
  expect(err).toContain('this is not the API root: /user answered 404 with text/html')
  expect(err.split('\n').filter((line) => line.startsWith('error[')).length).toBe(1)
})

it('exits 3 with one sentence when the server never answers', async () => {
  loopback = await startLoopbackServer(() => undefined)
  const { code, err } = await run({ baseUrl: new URL(loopback.url), token: 'some-token-1234', timeout: 500 })
  expect(code).toBe(3)
  expect(err).toContain('failed: no answer within 0.5 s')
})

it('exits 2 naming the filters when they select no scenario, and sends nothing', async () => {
  const before = reference.url
  const { code, err, out } = await run({
    baseUrl: new URL(before),
    token: reference.tokens.token,
    tag: ['no-such-tag'],
  })
  expect(code).toBe(2)
  expect(err).toContain('No scenario selected: --tag no-such-tag matched none of the')
  expect(out).toBe('')
})

it('writes every report, JSON, JUnit, Markdown and HTML, when the server nests JSON 100,000 deep', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
  loopback = await startLoopbackServer((request, response) => {
    request.resume()
    response.writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' }).end(deep)
  })
  const { code, err } = await run({
    baseUrl: new URL(loopback.url),
    token: 'some-token-1234',
    reporter: 'console,json,junit,markdown,html',
  })
  expect(code).toBe(1)
  expect(err).not.toContain('E_REPORTER')
  expect((await readdir(dir)).filter((name) => !name.startsWith('ledger-')).sort()).toEqual([
    'junit.xml',
    'report.html',
    'results.json',
    'summary.md',
  ])
  const results = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as {
    diagnostics: unknown[]
    summary: { failed: number }
  }
  expect(results.diagnostics).toEqual([])
  expect(results.summary.failed).toBeGreaterThan(0)
})

it('lets the other reporters finish when one fails, and exits 1', async () => {
  const { code, err } = await (async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-first-screen-'))
    const broken = path.join(dir, 'broken-reporter.mjs')
    await writeFile(broken, 'export default { name: "broken", onRunEnd() { throw new Error("disk full") } }\n')
    const screen = testScreen()
    const exit = await runCommand(
      [USER_SUITE],
      {
        outputDir: dir,
        timeout: 2_000,
        baseUrl: new URL(reference.url),
        token: reference.tokens.token,
        reporter: `${broken},console,json,junit`,
      },
      screen,
    )
    return { code: exit, err: screen.stderr() }
  })()
  expect(code).toBe(1)
  expect(err).toContain('reporter "broken" failed in onRunEnd: disk full')
  const files = await readdir(dir)
  expect(files).toContain('results.json')
  expect(files).toContain('junit.xml')
})
