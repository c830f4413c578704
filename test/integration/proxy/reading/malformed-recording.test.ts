// Issue 11 item 5: analyze, har, scaffold and mock skip a malformed recording line (null request,
// not JSON, a truncated last line) with a `file:line` warning and go on with the rest. Issue 17: har
// writes to stdout with `-o -`, and beside the recording without `-o`.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../helpers/temp-dir.js'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runHarCommand } from '../../../../proxy/commands/har-command.js'
import { runMockCommand } from '../../../../proxy/commands/mock-command.js'
import { runScaffoldCommand } from '../../../../proxy/commands/scaffold-command.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { media, request, startTestProxy } from '../helpers.js'

function collect(): { out: string[]; err: string[]; io: { out: (line: string) => void; err: (line: string) => void } } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (line) => out.push(line), err: (line) => err.push(line) } }
}

describe('recording tools on a damaged recording', () => {
  let server: RunningReferenceServer
  let dir: string
  let file: string
  /** Line numbers of the bad lines, as the warnings must name them. */
  let badLines: number[]

  beforeAll(async () => {
    server = await startReferenceServer()
    const proxy = await startTestProxy(server.url)
    const auth = { authorization: `Bearer ${server.tokens.token}` }
    await request(`${proxy.proxy.url}/user`, { headers: { ...auth, accept: media('User') } })
    await request(`${proxy.proxy.url}/fitnessActivities`, {
      headers: { ...auth, accept: media('FitnessActivityFeed') },
    })
    await proxy.stop()
    dir = makeTempDir('fitconform-malformed-')
    file = join(dir, 'session.ndjson')
    const good = readFileSync(proxy.file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
    const lines = [
      good[0] as string,
      '{"request":null,"response":null}',
      'not json at all',
      '{"request":{"method":"GET"},"response":{}}',
      good[1] as string,
    ]
    writeFileSync(file, `${lines.join('\n')}\n`)
    // A crash cut the last line short.
    appendFileSync(file, (good[1] as string).slice(0, 40))
    badLines = [2, 3, 4, 6]
  })

  afterAll(async () => {
    await server.close()
  })

  const warnedLines = (err: readonly string[]): number[] =>
    err.flatMap((line) => {
      const match = /^warning: (.+):(\d+): line skipped: /.exec(line)
      return match?.[1] === file ? [Number(match[2])] : []
    })

  it('analyze counts the two good exchanges and warns with file:line for each bad one', async () => {
    const { out, err, io } = collect()
    expect(await runAnalyzeCommand([file], {}, io)).toBe(0)
    expect(out[0]).toContain('2 exchanges')
    expect(warnedLines(err)).toEqual(badLines)
    expect(err.join('\n')).toContain(`${file}:2: line skipped: not a recorded exchange (no request)`)
    expect(err.at(-1)).toBe('warning: 4 malformed recording line(s) skipped')
  })

  it('har -o - writes the HAR of the good lines to stdout, warnings and receipt to stderr', async () => {
    const { out, err, io } = collect()
    const stdout = new PassThrough()
    const chunks: Buffer[] = []
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    expect(await runHarCommand([file], { output: '-' }, { ...io, stdout })).toBe(0)
    const har = JSON.parse(Buffer.concat(chunks).toString()) as { log: { entries: unknown[] } }
    expect(har.log.entries).toHaveLength(2)
    expect(out).toEqual([])
    expect(existsSync('-')).toBe(false)
    expect(warnedLines(err)).toEqual(badLines)
    expect(err.at(-1)).toBe('wrote 2 entries to stdout')
  })

  it('har without -o writes beside the recording, same name with .har', async () => {
    const { out, io } = collect()
    expect(await runHarCommand([file], {}, io)).toBe(0)
    const beside = join(dir, 'session.har')
    expect(out).toEqual([`wrote 2 entries to ${beside}`])
    expect((JSON.parse(readFileSync(beside, 'utf8')) as { log: { entries: unknown[] } }).log.entries).toHaveLength(2)
  })

  it('scaffold writes scenarios from the good lines and warns once per bad line', async () => {
    const { err, io } = collect()
    expect(await runScaffoldCommand([file], { output: join(dir, 'scaffolded') }, io)).toBe(0)
    expect(warnedLines(err)).toEqual(badLines)
    expect(existsSync(join(dir, 'scaffolded'))).toBe(true)
  })

  it('mock serves the good lines and warns for the bad ones', async () => {
    const { out, err, io } = collect()
    const controller = new AbortController()
    let ready: (url: string) => void = () => {}
    const url = new Promise<string>((resolve) => {
      ready = resolve
    })
    const running = runMockCommand([file], { signal: controller.signal, onReady: ready, quiet: true }, io)
    const base = await url
    expect(out[0]).toContain('serving 2 recorded exchanges')
    expect(warnedLines(err)).toEqual(badLines)
    expect(
      (await request(`${base}/user`, { headers: { authorization: 'Bearer x', accept: media('User') } })).status,
    ).toBe(200)
    controller.abort()
    expect(await running).toBe(0)
  })
})
