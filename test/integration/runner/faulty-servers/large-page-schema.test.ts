// A feed page of 400,000 tiny items (7.6 MB, under the 8 MiB body cap), each with the same fault,
// judged against its schema. It used to become 2.4 million problem objects (1.3 GB) and hold the
// event loop for seconds: the run died under a heap of 384 MB, a scenario reading a normal endpoint
// meanwhile was reported as the server's timeout, and SIGTERM waited for the judging to end.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../../../helpers/cli.js'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/runner/large-page-schema.yaml', import.meta.url))
const ITEMS = 400_000
const PAGE = Buffer.from(
  JSON.stringify({ size: ITEMS, items: Array.from({ length: ITEMS }, () => ({ uri: 'a/123456' })) }),
)

interface Results {
  scenarios: {
    id: string
    status: string
    steps: {
      status: string
      error?: { code: string }
      assertions: { ok: boolean; severity: string; message: string }[]
    }[]
  }[]
}

let server: LoopbackServer
let pageSent = false
const onPageSent: (() => void)[] = []
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    request.resume()
    if (answerUserEntryPoint(request, response)) return
    if (request.url === '/user/again') {
      // Answered once the page is out, while the runner reads and judges it.
      const answer = (): void =>
        void setTimeout(
          () =>
            response.writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' }).end('{"userID":1}'),
          200,
        )
      if (pageSent) answer()
      else onPageSent.push(answer)
      return
    }
    pageSent = false
    response
      .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
      .end(PAGE, () => {
        pageSent = true
        for (const waiting of onPageSent.splice(0)) waiting()
      })
  })
})
afterAll(() => server.close())

function runArgs(outputDir: string): string[] {
  return [
    'run',
    FIXTURE,
    '--base-url',
    server.url,
    '--token',
    'large-page-token',
    '--output-dir',
    outputDir,
    '--timeout',
    '5000',
    '--concurrency',
    '2',
    '--read-only',
    '--reporter',
    'json',
  ]
}

it(`counts the fault of all ${ITEMS} items in a heap of 384 MB, and the scenario beside it is not timed out`, async () => {
  const dir = makeTempDir('fitconform-large-page-')
  const outcome = await runCli(runArgs(dir), { env: { NODE_OPTIONS: '--max-old-space-size=384' } })
  expect(outcome.stderr).not.toMatch(/heap out of memory/)
  expect(outcome.code).toBe(1)
  const results = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as Results
  const [page, neighbour] = [
    results.scenarios.find((s) => s.id === 'large-page-schema')!,
    results.scenarios.find((s) => s.id === 'large-page-neighbour')!,
  ]
  const failed = page.steps[0]!.assertions.filter((a) => !a.ok && a.severity === 'failure').map((a) => a.message)
  expect(failed).toEqual([
    `${ITEMS} of ${ITEMS} items: /items/*/uri must be a relative URI starting with "/" (no scheme, no host), found the text "a/123456" (the first at /items/0/uri)`,
  ])
  expect(neighbour.steps.map((step) => [step.status, step.error?.code])).toEqual([['passed', undefined]])
}, 120_000) // a bound for a machine shared by many runs, not a speed goal

it('honours SIGTERM while the page is judged: the judging stops and says how far it got', async () => {
  const dir = makeTempDir('fitconform-large-page-signal-')
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/fitconform.js'), ...runArgs(dir)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve))
  await new Promise<void>((resolve) => onPageSent.push(resolve))
  child.kill('SIGTERM')
  await ended
  expect(stderr).toContain('SIGTERM: stopping')
  const results = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as Results
  const page = results.scenarios.find((s) => s.id === 'large-page-schema')!
  const note = page.steps[0]!.assertions.map((a) => a.message).find((message) => message.includes('items were judged'))
  expect(note).toMatch(new RegExp(`^only the first \\d+ of ${ITEMS} items were judged: the run was interrupted$`))
}, 120_000)
