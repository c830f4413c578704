import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCommand } from '../../../src/cli/run-command.js'
import type { Screen } from '../../../src/model/reporter.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

let folder: string | undefined
let server: LoopbackServer | undefined
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true })
  await server?.close()
  folder = undefined
  server = undefined
})

async function run(
  paths: string[],
  flags: Parameters<typeof runCommand>[1] = {},
): Promise<{ code: number; said: string }> {
  // A server that would record any request: none may come when the input is refused.
  server = await startLoopbackServer((_, response) => response.writeHead(500).end())
  let said = ''
  const screen: Screen = {
    out: (t) => void (said += t),
    err: (t) => void (said += t),
    colors: false,
    isTTY: false,
    width: 100,
  }
  const code = await runCommand(
    paths,
    {
      baseUrl: new URL(server.url),
      token: 'hostile-input-token',
      outputDir: folder ?? tmpdir(),
      reporter: 'console',
      ...flags,
    },
    screen,
  )
  return { code, said }
}

describe('hostile input exits 2 with the reason instead of hanging or exhausting memory', () => {
  it('refuses a FIFO given as a scenario file (reading it would block for ever)', async () => {
    folder = await mkdtemp(join(tmpdir(), 'fitconform-fifo-'))
    const fifo = join(folder, 'scenarios.yaml')
    execFileSync('mkfifo', [fifo])
    const { code, said } = await run([fifo])
    expect(code).toBe(2)
    expect(said).toMatch(/is not a regular file \(a FIFO\)/)
    expect(server!.requests).toEqual([])
  })

  it('refuses a scenario file over 4 MiB, also inside a folder', async () => {
    folder = await mkdtemp(join(tmpdir(), 'fitconform-huge-'))
    await writeFile(join(folder, 'huge.yaml'), `# ${'x'.repeat(4 * 1024 * 1024)}\nscenarios: []\n`)
    const { code, said } = await run([folder])
    expect(code).toBe(2)
    expect(said).toMatch(/huge\.yaml is \d+ bytes, more than the 4194304 bytes \(4 MiB\) a scenario file may have/)
    expect(server!.requests).toEqual([])
  })

  it('refuses a --grep pattern that would backtrack exponentially, at once', async () => {
    const { code, said } = await run(['suites/user'], { grep: '^(\\w|.)*Z$' })
    expect(code).toBe(2)
    expect(said).toMatch(/--grep .* is regular-expression syntax/)
  })
})
