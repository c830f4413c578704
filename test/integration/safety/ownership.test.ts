import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunResult } from '../../../src/model/result.js'
import { ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'
import { startHostileAccount, USERS_ACTIVITY, type HostileAccount, type Lies } from './hostile-account.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/runner/create-then-read.yaml', import.meta.url))
const TOKEN = 'safety-test-token-4f1c'

let server: HostileAccount | undefined
let ledgerDir: string | undefined
afterEach(async () => {
  await server?.close()
  if (ledgerDir) await rm(ledgerDir, { recursive: true, force: true })
  server = undefined
  ledgerDir = undefined
})

/**
 * The run's result, its ledger's path, and the ledger as it stood after the last scenario (a ledger with nothing owed
 * is removed at the end).
 */
async function runAgainst(
  lies: Lies,
): Promise<{ result: RunResult; ledger: string; ledgerText: string; ledgerMode: number }> {
  server = await startHostileAccount(lies)
  ledgerDir = await mkdtemp(join(tmpdir(), 'fitconform-safety-'))
  let ledger = ''
  let ledgerText = ''
  let ledgerMode = 0
  const outcome = await runFixture(
    FIXTURE,
    targetOf(server.url, { token: TOKEN }),
    { concurrency: 1, timeoutMs: 2_000, ledgerDir },
    {
      onScenarioEnd: async () => {
        const [name] = await readdir(ledgerDir!)
        ledger = join(ledgerDir!, name!)
        ledgerText = await readFile(ledger, 'utf8')
        ledgerMode = (await stat(ledger)).mode & 0o777
      },
    },
  )
  return { result: ranResult(outcome), ledger, ledgerText, ledgerMode }
}

function failedRules(result: RunResult): string[] {
  return result.scenarios
    .flatMap((scenario) => [...scenario.steps, ...scenario.cleanup])
    .flatMap((step) => step.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules))
}

describe('cleanup touches only what the run proves it created', () => {
  it("leaves the user's activity alone when the Location names it (off by one), and blames CREATE-LOCATION", async () => {
    const { result } = await runAgainst({ location: (id) => `/fitnessActivities/${id - 1}` })
    expect(server!.activities.get(1)).toEqual(USERS_ACTIVITY)
    expect(server!.writes()).not.toContain('DELETE /fitnessActivities/1')
    expect(server!.writes()).not.toContain('PUT /fitnessActivities/1')
    expect(result.scenarios[0]!.status).toBe('failed')
    expect(failedRules(result)).toContain('CREATE-LOCATION')
    expect(result.cleanup?.notProvenOurs?.map((item) => item.url)).toEqual([`${server!.url}/fitnessActivities/1`])
    // The run's own activity, which no Location named, is found by its marker and removed.
    expect(result.cleanup?.found?.[0]?.reason).toMatch(/create whose response was lost/)
    expect([...server!.activities.keys()]).toEqual([1])
  })

  it('never writes to the collection when the Location has an empty id', async () => {
    const { result } = await runAgainst({ location: () => '/fitnessActivities/' })
    expect(server!.writes().filter((line) => /^(DELETE|PUT) \/fitnessActivities\/?$/.test(line))).toEqual([])
    expect(server!.activities.get(1)).toEqual(USERS_ACTIVITY)
    expect(failedRules(result)).toContain('CREATE-LOCATION')
  })

  it('blames the create rule for stored values, and deletes nothing, when the notes (and so the marker) are not stored', async () => {
    const { result } = await runAgainst({ dropsNotes: true })
    expect(server!.writes().filter((line) => line.startsWith('DELETE'))).toEqual([])
    expect(failedRules(result)).toContain('CREATE-RECORDS')
    expect(server!.activities.get(1)).toEqual(USERS_ACTIVITY)
  })

  it('reports an activity a DELETE answered 204 for but kept as left behind, fails the run and keeps the ledger open', async () => {
    const { result, ledger } = await runAgainst({ keepsDeleted: true })
    expect(result.cleanup?.leftBehind?.map((item) => item.url)).toContain(`${server!.url}/fitnessActivities/2`)
    expect(result.cleanup?.openLedger).toBe(ledger)
    expect(result.diagnostics.some((d) => d.code === 'E_CLEANUP' && /left behind/.test(d.message))).toBe(true)
    expect(failedRules(result)).toContain('DELETE-REMOVES')
    expect(await readFile(ledger, 'utf8')).not.toContain('"type":"closed"')
  })

  it("deletes the run's own activity when the server tells the truth", async () => {
    const { result } = await runAgainst({})
    expect([...server!.activities.keys()]).toEqual([1])
    expect(result.summary.failed).toBe(0)
    expect(result.diagnostics).toEqual([])
  })
})

describe('the ledger holds no token', () => {
  it('redacts a token the server put into the Location, and is readable by its owner only', async () => {
    const { result, ledger, ledgerText, ledgerMode } = await runAgainst({
      location: (id) => `/fitnessActivities/${id}?access_token=${TOKEN}`,
    })
    expect(ledgerText).toContain('"type":"created"')
    expect(ledgerText).not.toContain(TOKEN)
    expect(JSON.stringify(result)).not.toContain(TOKEN)
    expect(ledgerMode).toBe(0o600)
    // Everything was undone, so the ledger is gone from the output folder.
    expect(existsSync(ledger)).toBe(false)
    expect([...server!.activities.keys()]).toEqual([1])
  })
})
