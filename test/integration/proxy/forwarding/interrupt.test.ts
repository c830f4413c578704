// `fitconform proxy` as a process, stopped with SIGTERM or SIGINT while its recording thread still has
// exchanges to write (100 KB bodies keep it behind): everything the clients got is on disk, each on a
// whole line, before the summary is printed and the process exits 0. Run from the TypeScript sources
// with the same loader the test processes use (register-typescript.js), so no build is needed.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { request } from '../helpers.js'

const CLI = fileURLToPath(new URL('../../../../src/cli/main.ts', import.meta.url))
const LOADER = fileURLToPath(new URL('../../../helpers/register-typescript.js', import.meta.url))
const BODY = Buffer.from(
  JSON.stringify({ items: Array.from({ length: (100 * 1024) / 32 }, (_, i) => ({ n: i, text: 'interrupted' })) }),
)
const EXCHANGES = 120

describe.each(['SIGTERM', 'SIGINT'] as const)('fitconform proxy stopped with %s', (signal) => {
  let upstream: LoopbackServer
  let dir: string
  let lines: string[]
  let stdout = ''
  let exitCode: number | null

  beforeAll(async () => {
    upstream = await startLoopbackServer((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length }).end(BODY)
    })
    dir = mkdtempSync(join(tmpdir(), 'fitconform-interrupt-'))
    const recording = join(dir, 'session.ndjson')
    const target = upstream.url
    const child = spawn(
      process.execPath,
      ['--import', LOADER, CLI, 'proxy', '--target', target, '--record', recording, '--quiet'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    )
    const output = createInterface({ input: child.stdout })
    output.on('line', (line) => (stdout += `${line}\n`))
    const [first] = (await once(output, 'line')) as [string]
    const base = /http:\/\/127\.0\.0\.1:\d+/.exec(first)?.[0] as string
    const agent = new http.Agent({ keepAlive: true, maxSockets: 12 })
    const answers = await Promise.all(
      Array.from({ length: EXCHANGES }, (_, i) => request(`${base}/items?n=${i}`, { agent })),
    )
    agent.destroy()
    expect(answers.every((answer) => answer.body.equals(BODY))).toBe(true)
    const exited = once(child, 'exit')
    child.kill(signal)
    ;[exitCode] = (await exited) as [number | null]
    lines = readFileSync(recording, 'utf8').split('\n')
  }, 90_000) // the child compiles the TypeScript sources on start: slow on a loaded 2-core machine

  afterAll(async () => {
    await upstream.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('writes every answered exchange before it exits, each on a whole line', () => {
    expect(lines.at(-1)).toBe('')
    const numbers = lines
      .slice(0, -1)
      .map((line) =>
        Number(new URL((JSON.parse(line) as { request: { url: string } }).request.url).searchParams.get('n')),
      )
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: EXCHANGES }, (_, i) => i))
  })

  it('prints its summary and exits 0', () => {
    expect(stdout).toContain(`${EXCHANGES} exchanges, none failed upstream`)
    expect(exitCode).toBe(0)
  })
})
