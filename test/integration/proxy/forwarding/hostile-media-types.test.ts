// One 100-byte media type used to hang everything that parses one: `<type> ; ; ; … !` sent the shared
// grammar into exponential backtracking. Now the proxy records the exchange and stops on SIGTERM,
// analyze reads the recording, and mock answers, each with the header that used to hang it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runMockCommand } from '../../../../proxy/commands/mock-command.js'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'
import { request, startTestProxy } from '../helpers.js'

const CLI = fileURLToPath(new URL('../../../../src/cli/main.ts', import.meta.url))
const LOADER = fileURLToPath(new URL('../../../helpers/register-typescript.js', import.meta.url))
/** Before the hand parser, n = 18 took 9 s and n = 30 weeks. */
const HOSTILE = `application/vnd.com.service.FitnessActivityFeed+json${' ; '.repeat(30)}!`

let upstream: LoopbackServer
beforeAll(async () => {
  upstream = await startLoopbackServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'content-type': HOSTILE }).end('{"size":0,"items":[]}')
  })
})
afterAll(() => upstream.close())

const hostileRead = { headers: { authorization: 'Bearer hostile-media-type-token', accept: HOSTILE } }

describe('the proxy, analyze and mock with a media type that used to backtrack for weeks', () => {
  let recording: string

  beforeAll(async () => {
    const proxy = await startTestProxy(upstream.url)
    expect((await request(`${proxy.proxy.url}/fitnessActivities`, hostileRead)).status).toBe(200)
    const entries = await proxy.stop()
    expect(entries).toHaveLength(1)
    expect(entries[0]!.response.headers.find((header) => header.name.toLowerCase() === 'content-type')?.value).toBe(
      HOSTILE,
    )
    recording = proxy.file
  })

  it('analyze judges the recording: neither header names the media type of the feed', async () => {
    const lines: string[] = []
    const code = await runAnalyzeCommand(
      [recording],
      { json: true },
      { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    )
    expect(code).toBe(1)
    expect(lines.join('\n')).toMatch(/MEDIA-TYPE/)
  })

  it('mock answers a request carrying it', async () => {
    const controller = new AbortController()
    let ready: (url: string) => void = () => undefined
    const url = new Promise<string>((resolve) => (ready = resolve))
    const running = runMockCommand(
      [recording],
      { signal: controller.signal, onReady: ready },
      { out: () => undefined, err: () => undefined },
    )
    const answer = await request(`${await url}/fitnessActivities`, hostileRead)
    expect([200, 501]).toContain(answer.status)
    controller.abort()
    expect(await running).toBe(0)
  })
})

it('the proxy as a process records the exchange and exits 0 on SIGTERM after forwarding it', async () => {
  const recording = join(makeTempDir('fitconform-hostile-'), 'session.ndjson')
  const child = spawn(
    process.execPath,
    ['--import', LOADER, CLI, 'proxy', '--target', upstream.url, '--record', recording, '--quiet'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const output = createInterface({ input: child.stdout })
  const [first] = (await once(output, 'line')) as [string]
  const base = /http:\/\/127\.0\.0\.1:\d+/.exec(first)?.[0] as string
  expect((await request(`${base}/fitnessActivities`, hostileRead)).status).toBe(200)
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const [code] = (await exited) as [number | null]
  expect(code).toBe(0)
  const lines = readFileSync(recording, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
  expect(lines).toHaveLength(1)
}, 90_000) // the child compiles the TypeScript sources on start
