// Issue 25 item 6: an output folder that cannot be one (`--output-dir /dev/full/x`, a path under a
// regular file) ended the run with E_INTERNAL, exit 1, after the server had been asked; a report the
// disk refused (ENOSPC on /dev/full) was exit 1 like a broken reporter. Both are now exit 2 with the
// reason, the first before any request.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js'
import { makeTempDir } from '../helpers/temp-dir.js'

let server: LoopbackServer
let regularFile: string
beforeAll(async () => {
  server = await startLoopbackServer((_, response) => response.writeHead(200).end('{}'))
  regularFile = join(makeTempDir('fitconform-report-folder-'), 'a-file')
  writeFileSync(regularFile, 'not a folder\n')
})
afterAll(() => server.close())

const hasDevFull = existsSync('/dev/full')

describe('an output folder that cannot be made: exit 2 with the reason, nothing sent', () => {
  it.each([
    ...(hasDevFull
      ? [
          {
            case: '--output-dir /dev/full/x',
            args: (): string[] => ['--output-dir', '/dev/full/x'],
            message: /cannot create the report folder \/dev\/full\/x: ENOTDIR/,
          },
        ]
      : []),
    {
      case: '--output-dir under a regular file',
      args: (): string[] => ['--output-dir', join(regularFile, 'reports')],
      message: /cannot create the report folder .*a-file\/reports: ENOTDIR/,
    },
    {
      case: '--output-dir naming a regular file',
      args: (): string[] => ['--output-dir', regularFile],
      message: /cannot create the report folder .*a-file: ENOTDIR: it exists and is not a folder/,
    },
    {
      case: 'a reporter path under a regular file',
      args: (): string[] => ['--reporter', `junit:${join(regularFile, 'junit.xml')},console`],
      message: /cannot create the report folder .*a-file: ENOTDIR/,
    },
  ])('$case', async ({ args, message }) => {
    const before = server.requests.length
    const outcome = await runCli([
      'run',
      'suites/user',
      '--base-url',
      server.url,
      '--token',
      'report-folder-token',
      ...args(),
    ])
    expect(outcome.stderr).toMatch(message)
    expect(outcome.stderr).not.toContain('E_INTERNAL')
    expect(outcome.code).toBe(2)
    expect(server.requests.length).toBe(before)
  })
})

describe.runIf(hasDevFull)('a report the disk refuses', () => {
  it('exits 2 and says why (ENOSPC on /dev/full)', async () => {
    const outcome = await runCli([
      'run',
      'suites/user',
      '--reporter',
      'json:/dev/full,console',
      '--output-dir',
      makeTempDir('fitconform-report-folder-'),
    ])
    expect(outcome.stderr).toMatch(/reporter "json" failed in onRunEnd: ENOSPC/)
    expect(outcome.stderr).toContain(
      '1 report(s) could not be written (above): free the disk or name a folder you can write to with --output-dir; exit 2.',
    )
    expect(outcome.code).toBe(2)
  })
})
