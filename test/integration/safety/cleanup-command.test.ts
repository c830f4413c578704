import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanupCommand } from '../../../src/cli/cleanup-command.js'
import type { Screen } from '../../../src/model/reporter.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'
import { startHostileAccount, USERS_ACTIVITY, type HostileAccount } from './hostile-account.js'

const TOKEN = 'safety-cleanup-token-9a2e'
const MARKER = 'fitconform-run-0badc0de'

let account: HostileAccount | undefined
let elsewhere: LoopbackServer | undefined
let outputDir: string | undefined
afterEach(async () => {
  await account?.close()
  await elsewhere?.close()
  if (outputDir) await rm(outputDir, { recursive: true, force: true })
})

function captureScreen(): Screen & { text: () => string } {
  let text = ''
  return {
    out: (t) => void (text += t),
    err: (t) => void (text += t),
    colors: false,
    isTTY: false,
    width: 100,
    text: () => text,
  }
}

/** A ledger as a hostile or careless hand could have left it: it names another host and the user's own activity. */
async function writeLedger(): Promise<string> {
  account = await startHostileAccount()
  account.activities.set(2, {
    type: 'Running',
    start_time: 'Sat, 1 Mar 1980 08:00:00',
    notes: `${MARKER} created by the run`,
    uri: '/fitnessActivities/2',
  })
  elsewhere = await startLoopbackServer((_, response) => response.writeHead(204).end())
  outputDir = await mkdtemp(join(tmpdir(), 'fitconform-cleanup-'))
  const file = join(outputDir, 'ledger-0badc0de.ndjson')
  const lines = [
    {
      type: 'run',
      runId: '0badc0de',
      marker: MARKER,
      farYear: 1980,
      target: `${elsewhere.url}/`,
      at: '2026-01-01T00:00:00Z',
    },
    { type: 'created', url: `${elsewhere.url}/fitnessActivities/5`, role: 'token', scenario: 'a' },
    { type: 'created', url: `${account.url}/fitnessActivities/1`, role: 'token', scenario: 'b' },
    { type: 'created', url: `${account.url}/fitnessActivities/`, role: 'token', scenario: 'c' },
    { type: 'created', url: `${account.url}/fitnessActivities/2`, role: 'token', scenario: 'd' },
    {
      type: 'restore',
      scenario: 'e',
      requests: [{ method: 'PUT', url: `${elsewhere.url}/profile`, role: 'token', headers: {}, body: '{}' }],
    },
  ]
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
  return file
}

describe('`fitconform cleanup` trusts nothing in the ledger file', () => {
  it('asks for --base-url, naming the server the ledger names, and sends nothing without it', async () => {
    await writeLedger()
    const screen = captureScreen()
    const code = await cleanupCommand({ outputDir, token: TOKEN }, screen)
    expect(code).toBe(2)
    expect(screen.text()).toContain(elsewhere!.url)
    expect(screen.text()).toContain('--base-url')
    expect(account!.requests).toEqual([])
    expect(elsewhere!.requests).toEqual([])
  })

  it('acts only under the given --base-url and only on an activity that carries the run marker, and reports what it refused', async () => {
    const file = await writeLedger()
    const screen = captureScreen()
    const code = await cleanupCommand({ outputDir, token: TOKEN, baseUrl: new URL(account!.url) }, screen)
    expect(elsewhere!.requests).toEqual([])
    expect(account!.activities.get(1)).toEqual(USERS_ACTIVITY)
    expect(account!.activities.has(2)).toBe(false)
    expect(account!.writes()).toEqual(['DELETE /fitnessActivities/2'])
    expect(code).toBe(1)
    const said = screen.text()
    expect(said).toContain(`refused (not proven ours, nothing sent): ${elsewhere!.url}/fitnessActivities/5`)
    expect(said).toContain(`refused (not proven ours, nothing sent): ${account!.url}/fitnessActivities/1`)
    expect(said).toMatch(
      /refused ledger line \(nothing done for it\): line 6: a request that is not a PUT of editable §2.6 profile fields is never replayed/,
    )
    expect(said).not.toContain(TOKEN)
    expect(await readFile(file, 'utf8')).not.toContain('"type":"closed"')
  })
})

/** A ledger of the given lines in a fresh output folder, beside an account holding the user's activity and another server. */
async function craftLedger(lines: (account: HostileAccount, elsewhere: LoopbackServer) => unknown[]): Promise<string> {
  account = await startHostileAccount()
  elsewhere = await startLoopbackServer((_, response) => response.writeHead(204).end())
  outputDir = await mkdtemp(join(tmpdir(), 'fitconform-cleanup-'))
  const file = join(outputDir, 'ledger-0badc0de.ndjson')
  await writeFile(
    file,
    lines(account, elsewhere)
      .map((line) => JSON.stringify(line))
      .join('\n') + '\n',
  )
  return file
}

describe('a crafted ledger is evidence, never authority', () => {
  const run = {
    type: 'run',
    runId: '0badc0de',
    marker: MARKER,
    farYear: 1980,
    target: 'http://127.0.0.1:1/',
    at: '2026-01-01T00:00:00Z',
  }

  it('never sends a GET or HEAD "restore", to another host or any other, and exits 1 naming the line', async () => {
    await craftLedger((_, other) => [
      run,
      {
        type: 'restore',
        scenario: 'x',
        requests: [
          { method: 'GET', url: `${other.url}/steal`, role: 'token', headers: {} },
          { method: 'HEAD', url: `${other.url}/steal`, role: 'other-token', headers: {} },
        ],
      },
    ])
    const screen = captureScreen()
    const code = await cleanupCommand(
      { outputDir, token: TOKEN, otherToken: `${TOKEN}-other`, baseUrl: new URL(account!.url) },
      screen,
    )
    expect(elsewhere!.requests).toEqual([])
    expect(account!.requests.filter((line) => line.includes('steal'))).toEqual([])
    expect(code).toBe(1)
    expect(screen.text()).toMatch(/refused ledger line .*line 2/)
    expect(screen.text()).not.toContain(TOKEN)
  })

  it("refuses a one-character marker: the sweep deletes none of the user's activities (whose notes contain it)", async () => {
    await craftLedger(() => [{ ...run, marker: 'e' }])
    const screen = captureScreen()
    const code = await cleanupCommand({ outputDir, token: TOKEN, baseUrl: new URL(account!.url) }, screen)
    expect(account!.writes()).toEqual([])
    expect(account!.activities.get(1)).toEqual(USERS_ACTIVITY)
    expect(code).toBe(1)
    expect(screen.text()).toMatch(/line 1: the marker is not of the run-marker shape/)
  })

  it("refuses a far year of the file's choosing outside the years a run picks", async () => {
    await craftLedger(() => [{ ...run, farYear: 2024 }])
    const code = await cleanupCommand({ outputDir, token: TOKEN, baseUrl: new URL(account!.url) }, captureScreen())
    expect(account!.requests.filter((line) => line.startsWith('GET /fitnessActivities?'))).toEqual([])
    expect(account!.writes()).toEqual([])
    expect(code).toBe(1)
  })

  it('never writes a profile field or method the file chooses: only editable §2.6 fields, by PUT to the profile under --base-url', async () => {
    await craftLedger((_, other) => [
      run,
      {
        type: 'restore',
        scenario: 'x',
        requests: [{ method: 'DELETE', url: `${other.url}/profile`, role: 'token', headers: {} }],
      },
      {
        type: 'restore',
        scenario: 'y',
        requests: [
          {
            method: 'PUT',
            url: `${other.url}/profile`,
            role: 'other-token',
            headers: { 'x-evil': '1' },
            body: '{"name":"owned","athlete_type":"Runner"}',
          },
        ],
      },
      { type: 'profile', role: 'token', field: 'name', value: 'owned' },
      { type: 'profile', role: 'token', field: 'athlete_type', value: { nested: true } },
    ])
    const screen = captureScreen()
    const code = await cleanupCommand(
      { outputDir, token: TOKEN, otherToken: `${TOKEN}-other`, baseUrl: new URL(account!.url) },
      screen,
    )
    expect(elsewhere!.requests).toEqual([])
    expect(account!.writes()).toEqual([])
    expect(code).toBe(1)
    for (const line of [2, 3, 4, 5]) expect(screen.text()).toContain(`line ${line}:`)
  })
})
