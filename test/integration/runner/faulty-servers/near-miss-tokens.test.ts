// A server that compares only the first 14 characters of a token passed the whole suite before the
// near-miss scenario: now it fails AUTH-REQUIRED there, and no report or console line holds the
// token or any near miss of it (each would give away all but one character).
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { runCommand } from '../../../../src/cli/run-command.js'
import { testScreen } from '../../../fixtures/report/build-result.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const NEAR_MISS_SUITE = fileURLToPath(new URL('../../../../suites/security/near-miss-tokens.yaml', import.meta.url))
let server: RunningReferenceServer
beforeAll(async () => {
  server = await startReferenceServer({ mutant: 'token-prefix-matched' })
})
afterAll(() => server.close())

it('fails AUTH-REQUIRED on a server that accepts a token by its prefix, and writes no byte of the token', async () => {
  const dir = makeTempDir('fitconform-near-miss-')
  const screen = testScreen()
  const code = await runCommand(
    [NEAR_MISS_SUITE],
    {
      baseUrl: new URL(server.url),
      token: server.tokens.token,
      outputDir: dir,
      timeout: 2_000,
      reporter: 'console,json,junit,html',
    },
    screen,
  )
  expect(code).toBe(1)
  const results = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as {
    rules: { id: string; status: string }[]
  }
  expect(results.rules.find((rule) => rule.id === 'AUTH-REQUIRED')?.status).toBe('failed')
  const written = [
    screen.stdout(),
    screen.stderr(),
    ...(await Promise.all((await readdir(dir)).map((file) => readFile(path.join(dir, file), 'utf8')))),
  ]
  expect(written.length).toBeGreaterThan(3)
  // Every near miss of 'demo-token-alice' starts with its first 15 characters.
  for (const text of written) expect(text).not.toContain(server.tokens.token.slice(0, -1))
})
