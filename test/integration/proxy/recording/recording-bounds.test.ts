// Issue 25 item 6: the recording readers have bounds. A line nested 100,000 deep (in its own JSON or
// in a body it holds) ran `scaffold` out of stack (E_INTERNAL, exit 1) and `har` into "cannot write
// stdout: Maximum call stack size exceeded"; a 300 MB line was held whole (1.0–1.9 GB). Now a line
// past either bound stops analyze, har and scaffold with exit 2 and the line's number.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { runHarCommand } from '../../../../proxy/commands/har-command.js'
import { runScaffoldCommand } from '../../../../proxy/commands/scaffold-command.js'
import { MAX_LINE_BYTES_ENV } from '../../../../proxy/reading/read-exchanges.js'
import { MAX_NESTING_DEPTH } from '../../../../src/load/nesting-depth.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

function entry(id: number, body: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    _id: id,
    startedDateTime: '2026-11-28T10:00:00.000Z',
    time: 1,
    timings: { send: 0, wait: 1, receive: 0 },
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/fitnessActivities',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body.length,
      postData: { mimeType: 'application/json', text: body },
    },
    response: {
      status: 201,
      statusText: 'Created',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }],
      cookies: [],
      content: { size: 2, mimeType: 'application/json', text: '{}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 2,
    },
    ...extra,
  })
}

function recording(lines: readonly string[]): string {
  const file = join(makeTempDir('fitconform-bounds-'), 'session.ndjson')
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

function collect(): { out: string[]; err: string[]; io: { out: (line: string) => void; err: (line: string) => void } } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (line) => out.push(line), err: (line) => err.push(line) } }
}

const TOOLS = [
  { tool: 'analyze', run: (file: string, io: ReturnType<typeof collect>['io']) => runAnalyzeCommand([file], {}, io) },
  {
    tool: 'har',
    run: (file: string, io: ReturnType<typeof collect>['io']) => runHarCommand([file], { output: `${file}.har` }, io),
  },
  {
    tool: 'scaffold',
    run: (file: string, io: ReturnType<typeof collect>['io']) =>
      runScaffoldCommand([file], { output: join(file, '..', 'scaffolded') }, io),
  },
]

const deep = 100_000
const CASES = [
  {
    shape: 'the line itself',
    line: (): string =>
      entry(2, '{}', { _deep: 0 }).replace('"_deep":0', `"_deep":${'['.repeat(deep)}${']'.repeat(deep)}`),
    where: /\(in the line itself\)/,
  },
  {
    shape: 'its request body',
    line: (): string => entry(2, `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`),
    where: /\(in its request body\)/,
  },
]

describe.each(TOOLS)('$tool refuses a line nested too deep', ({ tool, run }) => {
  it.each(CASES.filter((item) => tool === 'scaffold' || item.shape === 'the line itself'))(
    'nested 100,000 deep in $shape: exit 2 with the line number',
    async ({ line, where }) => {
      const file = recording([entry(1, '{}'), line(), entry(3, '{}')])
      const { out, err, io } = collect()
      expect(await run(file, io)).toBe(2)
      expect(err[0]).toContain(
        `error[E_RECORDING_TOO_DEEP]: line 2 of ${file} is nested deeper than ${MAX_NESTING_DEPTH} levels`,
      )
      expect(err[0]).toMatch(where)
      expect(out.join('\n')).not.toMatch(/wrote/)
      if (tool === 'har') expect(existsSync(`${file}.har`)).toBe(false)
      if (tool === 'scaffold') expect(existsSync(join(file, '..', 'scaffolded'))).toBe(false)
    },
  )
})

// analyze and har never walk a body by recursion (a body is text to them): a deep one is read as any other.
describe.each(TOOLS.filter(({ tool }) => tool !== 'scaffold'))('$tool reads a body nested 100,000 deep', ({ run }) => {
  it('as text, to the end', async () => {
    const file = recording([entry(1, '{}'), CASES[1]!.line(), entry(3, '{}')])
    const { err, io } = collect()
    expect(await run(file, io)).toBe(0)
    expect(err).toEqual([])
  })
})

describe('a line longer than the reader takes', () => {
  const saved = process.env[MAX_LINE_BYTES_ENV]
  afterEach(() => {
    if (saved === undefined) delete process.env[MAX_LINE_BYTES_ENV]
    else process.env[MAX_LINE_BYTES_ENV] = saved
  })

  it.each(TOOLS)('$tool: exit 2 naming the line and the limit, without holding the line', async ({ run }) => {
    process.env[MAX_LINE_BYTES_ENV] = '4096'
    const file = recording([entry(1, '{}'), entry(2, JSON.stringify({ notes: 'x'.repeat(20_000) })), entry(3, '{}')])
    const { err, io } = collect()
    expect(await run(file, io)).toBe(2)
    const [header, hint] = err[0]!.split('\n')
    expect(header).toBe(
      `error[E_RECORDING_LINE_TOO_LONG]: line 2 of ${file} is longer than 4096 bytes, the longest recording line fitconform reads`,
    )
    expect(hint).toMatch(/^ += hint: .*raise the limit with /)
    expect(hint).toContain(`${MAX_LINE_BYTES_ENV}=<bytes>`)
  })

  it('a line up to the limit is read', async () => {
    const long = entry(2, JSON.stringify({ notes: 'x'.repeat(3_000) }))
    process.env[MAX_LINE_BYTES_ENV] = String(Buffer.byteLength(long))
    const file = recording([entry(1, '{}'), long, entry(3, '{}')])
    const { out, err, io } = collect()
    expect(await runAnalyzeCommand([file], {}, io)).toBe(0)
    expect(err).toEqual([])
    expect(out[0]).toContain('3 exchanges')
  })

  it(`a ${MAX_LINE_BYTES_ENV} that is not a number of bytes is a usage error`, async () => {
    process.env[MAX_LINE_BYTES_ENV] = '64MB'
    const file = recording([entry(1, '{}')])
    const { err, io } = collect()
    expect(await runAnalyzeCommand([file], {}, io)).toBe(2)
    expect(err[0]!.split('\n')[0]).toBe(
      `error[E_MAX_LINE_BYTES]: ${MAX_LINE_BYTES_ENV}=64MB is not a whole number of bytes`,
    )
  })
})
