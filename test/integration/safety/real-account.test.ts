import { readdirSync, renameSync, symlinkSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunResult } from '../../../src/model/result.js'
import type { ConformanceOutcome } from '../../../src/execute/run-conformance.js'
import { demoTokensFor, ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'
import { startLyingAccount, type Bugs, type LyingAccount } from './lying-front.js'

// Each test: a real account (the reference server) behind a front with one plausible bug, the
// account read before and after. The promise: both accounts byte-identical afterwards, and a run
// that met a bug it could not see past is never green.

const SUITES = fileURLToPath(new URL('../../../suites', import.meta.url))

let account: LyingAccount | undefined
let ledgerDir: string | undefined
afterEach(async () => {
  await account?.close()
  if (ledgerDir) await rm(ledgerDir, { recursive: true, force: true })
  account = undefined
  ledgerDir = undefined
})

interface Ran {
  readonly outcome: ConformanceOutcome
  readonly result: RunResult
  readonly before: string
  readonly after: string
}

async function runOn(
  bugs: Bugs,
  paths: readonly string[],
  options: {
    grep?: RegExp
    onLedgerDir?: (dir: string) => void
    before?: (account: LyingAccount) => Promise<void>
  } = {},
): Promise<Ran> {
  account = await startLyingAccount(bugs)
  await options.before?.(account)
  ledgerDir = await mkdtemp(join(tmpdir(), 'fitconform-real-account-'))
  options.onLedgerDir?.(ledgerDir)
  const before = await account.snapshot()
  const outcome = await runFixture(
    paths.map((path) => join(SUITES, path)),
    targetOf(account.url, demoTokensFor(account.backend.tokens)),
    { filter: { readOnly: false, ...(options.grep ? { grep: options.grep } : {}) }, ledgerDir },
  )
  return { outcome, result: ranResult(outcome), before, after: await account.snapshot() }
}

function failedRules(result: RunResult): string[] {
  return result.scenarios
    .flatMap((scenario) => [...scenario.steps, ...scenario.cleanup])
    .flatMap((step) => step.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules))
}

/** Writes the front forwarded to an activity that was on the account before the run. */
function writesToExisting(before: string): string[] {
  const existing = new Set(
    before.split('\n').flatMap((line) => /^\S*\/(?:fitnessActivities|activities)\/(\S+) /.exec(line)?.slice(1) ?? []),
  )
  return account!.writes().filter((line) => existing.has(/^\w+ \/fitnessActivities\/(.+)$/.exec(line)?.[1] ?? ''))
}

function isGreen(result: RunResult): boolean {
  return result.summary.failed === 0 && result.diagnostics.length === 0
}

describe('a Location that names an existing activity never costs the user it', () => {
  it('whole suite: every create names the newest activity; both accounts stay identical and the run is not green', async () => {
    const ran = await runOn({ locationNamesNewest: true }, ['.'])
    expect(ran.after).toBe(ran.before)
    expect(isGreen(ran.result)).toBe(false)
    expect(failedRules(ran.result)).toContain('CREATE-LOCATION')
    expect(writesToExisting(ran.before)).toEqual([])
  }, 120_000)

  it('one scenario: the edit scenario sends nothing to the activity the Location names', async () => {
    const ran = await runOn({ locationNamesNewest: true }, ['activity/lifecycle.yaml'])
    expect(ran.after).toBe(ran.before)
    expect(failedRules(ran.result)).toContain('CREATE-LOCATION')
    expect(writesToExisting(ran.before)).toEqual([])
  })

  it('wrong on one create only: the run is not green, and the account is identical', async () => {
    const ran = await runOn({ locationNamesNewest: (index) => index === 0 }, ['activity/lifecycle.yaml'])
    expect(ran.after).toBe(ran.before)
    expect(isGreen(ran.result)).toBe(false)
    expect(failedRules(ran.result)).toContain('CREATE-LOCATION')
  })
})

describe('a Location with an empty id', () => {
  it('never leads to a write to the collection, even where a collection DELETE would clear it', async () => {
    // Empty on the second create only: the one conditional-activity deletes by its Location.
    const ran = await runOn({ emptyIdLocation: (index) => index === 1, collectionDeleteClears: true }, [
      'conditional/conditional-activity.yaml',
    ])
    expect(account!.writes().filter((line) => /^(PUT|DELETE) \/fitnessActivities\/?$/.test(line))).toEqual([])
    expect(isGreen(ran.result)).toBe(false)
    expect(failedRules(ran.result)).toContain('CREATE-LOCATION')
    expect(ran.after).toBe(ran.before)
  })
})

describe('the profile is left as the run found it, for every user', () => {
  it('does not set a field the server does not show, and counts nothing as restored', async () => {
    const ran = await runOn({ profileHidesAthleteType: true }, ['profile/edit-athlete-type.yaml'])
    expect(ran.after).toBe(ran.before)
    expect(account!.writes().filter((line) => line === 'PUT /profile')).not.toHaveLength(0)
    const scenario = ran.result.scenarios[0]!
    expect(scenario.status).toBe('skipped')
    expect(scenario.skipReason).toMatch(/does not show athlete_type/)
    expect(ran.result.cleanup).toMatchObject({ changed: 0, restored: 0 })
  })

  it("sets back the main user's profile that the other user's edit changed too (an isolation bug), and counts both", async () => {
    const ran = await runOn({ profileEditLeaks: true }, ['security/profile-isolation.yaml'])
    expect(ran.after).toBe(ran.before)
    expect(failedRules(ran.result)).toContain('AUTH-USER-ISOLATION')
    expect(ran.result.cleanup).toMatchObject({ changed: 2, restored: 2 })
    expect(ran.result.cleanup?.notRestored).toBeUndefined()
  })
})

describe('a ledger that cannot be written', () => {
  it('stops further writes but still deletes what was created, and says how to finish', async () => {
    let dir = ''
    const ran = await runOn(
      {
        onCreate: (index) => {
          if (index !== 1) return
          // The disk fills up while the run is under way: from now on every append fails (ENOSPC).
          // Synchronous and atomic (a rename over the ledger), so no append can recreate the file in between.
          const [file] = readdirSync(dir).filter((name) => name.startsWith('ledger-'))
          const full = join(dir, 'full')
          symlinkSync('/dev/full', full)
          renameSync(full, join(dir, file!))
        },
      },
      ['activity', 'conditional'],
      { onLedgerDir: (made) => (dir = made) },
    )
    expect(ran.after).toBe(ran.before)
    const ledgerProblem = ran.result.diagnostics.find((d) => d.code === 'E_LEDGER')
    expect(ledgerProblem?.message).toMatch(/could not be written \(ENOSPC\)/)
    expect(ledgerProblem?.hint).toMatch(/fitconform cleanup --base-url/)
    expect(ran.result.diagnostics.filter((d) => d.code === 'E_INTERNAL')).toEqual([])
    expect(JSON.stringify(ran.result)).not.toContain('E_INTERNAL')
  })
})

describe("the run's own days held nothing before it", () => {
  it('moves off far years that hold a running log (1980–1999), judges no day that held data, and touches none of it', async () => {
    const importLog = async (front: LyingAccount): Promise<void> => {
      for (const token of [front.backend.tokens.token, front.backend.tokens.otherToken]) {
        for (let year = 1980; year <= 1999; year++) {
          for (const month of [3, 9, 11]) {
            const start = new Date(Date.UTC(year, month - 1, 15, 7, 0, 0)).toUTCString().replace(' GMT', '')
            const answer = await request(`${front.backend.url}/fitnessActivities`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': 'application/vnd.com.service.NewFitnessActivity+json',
              },
              body: JSON.stringify({
                type: 'Running',
                equipment: 'None',
                start_time: start,
                notes: 'imported from my old running log',
              }),
            })
            await answer.body.dump()
            expect(answer.statusCode).toBe(201)
          }
        }
      }
    }
    const ran = await runOn({}, ['permissions', 'scopes/start-time-scopes.yaml', 'activity/lifecycle.yaml'], {
      before: importLog,
    })
    expect(ran.after).toBe(ran.before)
    expect(ran.result.cleanup?.notes?.join(' ')).toMatch(
      /holds activities on this account .*the run uses 19[67]\d instead/,
    )
    expect(
      ran.result.scenarios
        .filter((s) => s.status === 'failed')
        .map(
          (s) =>
            `${s.id}: ${JSON.stringify([...s.steps, ...s.cleanup].filter((step) => step.status !== 'passed' && step.status !== 'skipped').map((step) => [step.name, step.error?.message, step.assertions.filter((a) => !a.ok).map((a) => a.message)]))}`,
        ),
    ).toEqual([])
    expect(ran.result.summary.failed).toBe(0)
    expect(ran.result.diagnostics).toEqual([])
  }, 120_000)
})
