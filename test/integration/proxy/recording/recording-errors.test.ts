// Recording onto a disk that fills up (issue 11 item 5): the proxy keeps forwarding, says on stderr
// why exchanges are missing (even with --quiet), leaves no half line, counts what it could not record
// and exits 1 with a summary that does not claim "0 failed".
//
// Two real write errors, no mocks: /dev/full (every write fails with ENOSPC), and a file size limit
// set with `ulimit -f` on the proxy's process (a write crossing it is cut short, the next one fails
// with EFBIG: exactly the short write a full disk gives).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { request } from '../helpers.js'

const CLI = fileURLToPath(new URL('../../../../src/cli/main.ts', import.meta.url))
const LOADER = fileURLToPath(new URL('../../../helpers/register-typescript.js', import.meta.url))
const BODY = Buffer.from(
  JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ n: i, text: 'kept by the client' })) }),
)
const EXCHANGES = 30

let upstream: LoopbackServer
let target: string

beforeAll(async () => {
  upstream = await startLoopbackServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length }).end(BODY)
  })
  target = upstream.url
})

afterAll(() => upstream.close())

async function sendAll(base: string): Promise<boolean> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  const answers = await Promise.all(
    Array.from({ length: EXCHANGES }, (_, i) => request(`${base}/items?n=${i}`, { agent })),
  )
  agent.destroy()
  return answers.every((answer) => answer.status === 200 && answer.body.equals(BODY))
}

describe.skipIf(!existsSync('/dev/full'))('recording to a full device (/dev/full), with --quiet', () => {
  const out: string[] = []
  const err: string[] = []
  let code: number
  let forwarded: boolean

  beforeAll(async () => {
    const stop = new AbortController()
    let ready: (url: string) => void = () => {}
    const listening = new Promise<string>((resolve) => (ready = resolve))
    const exit = runProxyCommand(
      { target: new URL(target), record: '/dev/full', quiet: true, signal: stop.signal, onReady: (url) => ready(url) },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    )
    forwarded = await sendAll(await listening)
    stop.abort()
    code = await exit
  }, 30_000)

  it('keeps forwarding every exchange whole', () => {
    expect(forwarded).toBe(true)
  })

  it('says on stderr that the recording cannot be written, and why', () => {
    expect(
      err.some(
        (line) =>
          line.includes('error[E_RECORDING_WRITE]: cannot write the recording /dev/full') && line.includes('ENOSPC'),
      ),
    ).toBe(true)
  })

  it('counts every exchange as not recorded and exits 1', () => {
    expect(err.at(-1)).toContain(
      `error[E_UNRECORDED]: ${EXCHANGES} of ${EXCHANGES} exchanges were forwarded but are NOT in the recording`,
    )
    expect(code).toBe(1)
  })

  it('does not claim "0 failed" in its summary', () => {
    expect(out.join('\n')).not.toMatch(/\b0 failed\b/)
  })
})

describe('recording onto a disk that fills up mid-line (ulimit -f)', () => {
  let dir: string
  let recording: string
  let stdout = ''
  let stderr = ''
  let exitCode: number | null
  let forwarded: boolean

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fitconform-full-disk-'))
    recording = join(dir, 'session.ndjson')
    // 8 blocks of 1 KiB: a few lines fit, the next write is cut short, the ones after it fail (EFBIG).
    const command = `ulimit -f 8; JITI_FS_CACHE=false exec "${process.execPath}" --import "${LOADER}" "${CLI}" proxy --target ${target} --record "${recording}" --quiet`
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const output = createInterface({ input: child.stdout })
    output.on('line', (line) => (stdout += `${line}\n`))
    const [first] = (await once(output, 'line')) as [string]
    const base = /http:\/\/127\.0\.0\.1:\d+/.exec(first)?.[0] as string
    // One at a time, so that some lines are written before the limit is reached.
    forwarded = true
    for (let i = 0; i < EXCHANGES; i += 1)
      forwarded = (await request(`${base}/items?n=${i}`)).body.equals(BODY) && forwarded
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    ;[exitCode] = (await exited) as [number | null]
  }, 90_000) // a guard: the child starts through the TypeScript loader, slow on a busy machine

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps forwarding every exchange whole', () => {
    expect(forwarded).toBe(true)
  })

  it('leaves only whole lines in the recording', () => {
    const text = readFileSync(recording, 'utf8')
    expect(text.length).toBeGreaterThan(0)
    expect(text.endsWith('\n')).toBe(true)
    for (const line of text.split('\n').slice(0, -1)) expect(() => JSON.parse(line) as unknown).not.toThrow()
  })

  it('reports the cause, and counts exactly the exchanges missing from the file', () => {
    expect(stderr).toMatch(/cannot write the recording .*EFBIG/)
    const lines = readFileSync(recording, 'utf8').split('\n').length - 1
    const missing = Number(
      /error\[E_UNRECORDED\]: (\d+) of (\d+) exchanges were forwarded but are NOT in the recording/.exec(stderr)?.[1],
    )
    expect(missing).toBeGreaterThan(0)
    expect(lines + missing).toBe(EXCHANGES)
  })

  it('exits 1 and its summary does not claim "0 failed"', () => {
    expect(exitCode).toBe(1)
    expect(stdout).toContain(`${EXCHANGES} exchanges`)
    expect(stdout).not.toMatch(/\b0 failed\b/)
  })
})
