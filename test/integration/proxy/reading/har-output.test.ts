// `har` writes only where it was asked to: never through a symbolic link at its output (default or
// -o), and over an existing file only with --force, as scaffold asks. Each refusal is exit 2 with why.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runHarCommand } from '../../../../proxy/commands/har-command.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const LINE = JSON.stringify({
  request: { method: 'GET', url: 'http://127.0.0.1:1/user', headers: [] },
  response: { status: 200, headers: [] },
})

let dir = ''
let recording = ''
beforeEach(() => {
  dir = makeTempDir('fitconform-har-output-')
  recording = join(dir, 'session.ndjson')
  writeFileSync(recording, `${LINE}\n`)
})

function run(options: { output?: string; force?: boolean }) {
  const lines: string[] = []
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) }
  return runHarCommand([recording], options, io).then((code) => ({ code, said: lines.join('\n') }))
}

describe('har output', () => {
  it.each([
    ['at its default path', undefined],
    ['at -o', 'out.har'],
  ])('refuses a symbolic link %s, even with --force, and leaves its target untouched', async (_, name) => {
    const target = join(dir, 'precious.txt')
    writeFileSync(target, 'keep me')
    const link = join(dir, name ?? 'session.har')
    symlinkSync(target, link)
    for (const force of [false, true]) {
      const { code, said } = await run({ ...(name ? { output: link } : {}), force })
      expect(code).toBe(2)
      expect(said).toContain(`error[E_HAR_OUTPUT]: ${link} is a symbolic link; fitconform does not write through one`)
      expect(said).toContain('hint: remove it or name another file with -o')
    }
    expect(readFileSync(target, 'utf8')).toBe('keep me')
  })

  it('asks for --force before overwriting an existing file, then overwrites it', async () => {
    const output = join(dir, 'out.har')
    writeFileSync(output, 'older')
    const refused = await run({ output })
    expect(refused.code).toBe(2)
    expect(refused.said).toContain(`error[E_HAR_OUTPUT]: ${output} exists`)
    expect(refused.said).toContain('hint: pass --force to overwrite it, or name another file with -o')
    expect(readFileSync(output, 'utf8')).toBe('older')
    const forced = await run({ output, force: true })
    expect(forced.code).toBe(0)
    expect(readFileSync(output, 'utf8')).toContain('"version":"1.2"')
  })

  it('writes a new file without --force', async () => {
    const output = join(dir, 'new.har')
    expect((await run({ output })).code).toBe(0)
    expect(existsSync(output)).toBe(true)
  })
})
