// The runner used to hang at 100% CPU, deaf to SIGINT and SIGTERM, on one Content-Type of the form
// `<type> ; ; ; … !`. Now the run judges it like any other wrong media type and ends.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCommand } from '../../../../src/cli/run-command.js'
import { testScreen } from '../../../fixtures/report/build-result.js'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const USER_SUITE = fileURLToPath(new URL('../../../../suites/user', import.meta.url))
const HOSTILE = `application/vnd.com.service.User+json${' ; '.repeat(30)}!`

let server: LoopbackServer
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    request.resume()
    response
      .writeHead(200, { 'content-type': HOSTILE })
      .end(JSON.stringify({ userID: 1, profile: '/profile', fitness_activities: '/fitnessActivities' }))
  })
})
afterAll(() => server.close())

it('judges a Content-Type that used to backtrack for weeks as not the User media type, and ends', async () => {
  const dir = makeTempDir('fitconform-hostile-type-')
  const screen = testScreen()
  const code = await runCommand(
    [USER_SUITE],
    { baseUrl: new URL(server.url), token: 'hostile-type-token', outputDir: dir, timeout: 2_000 },
    screen,
  )
  expect(code).toBe(1)
  const results = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as {
    scenarios: { steps: { assertions: { ok: boolean; target: string }[] }[] }[]
  }
  const failedTargets = results.scenarios.flatMap((scenario) =>
    scenario.steps.flatMap((step) => step.assertions.filter((a) => !a.ok).map((a) => a.target)),
  )
  expect(failedTargets).toContain('headers.content-type')
})
