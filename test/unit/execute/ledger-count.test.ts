import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createLedger, readOpenWork } from '../../../src/execute/safety/ledger.js'

let dir = ''
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('counts the account summary so that it adds up: a profile field counts once, restored once it is back', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fitconform-ledger-'))
  const ledger = createLedger(dir, 'abcd1234', (value) => value)
  ledger.record({ type: 'profile', role: 'token', field: 'athlete_type', value: 'Runner' })
  ledger.record({ type: 'profile', role: 'token', field: 'athlete_type', value: 'Cyclist' }) // a later line does not replace the value found
  ledger.record({ type: 'profile', role: 'other-token', field: 'athlete_type', value: 'Walker' })
  ledger.record({ type: 'profile-restored', role: 'token', field: 'athlete_type' })
  ledger.record({ type: 'created', url: 'http://127.0.0.1:1/fitnessActivities/1', role: 'token', scenario: 'a' })
  ledger.record({ type: 'deleted', url: 'http://127.0.0.1:1/fitnessActivities/1' })
  ledger.record({ type: 'deleted', url: 'http://127.0.0.1:1/fitnessActivities/1' })
  const work = readOpenWork(ledger.file)
  expect(work.counts).toMatchObject({ created: 1, deleted: 1, changed: 2, restored: 1 })
  expect(work.toRestore).toEqual([{ role: 'other-token', fields: { athlete_type: 'Walker' } }])
  expect(work.refusedLines).toEqual([])
})

it('keeps nothing of a line it cannot hold as evidence, and says which line and why', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fitconform-ledger-'))
  const ledger = createLedger(dir, 'abcd1234', (value) => value)
  ledger.record({
    type: 'run',
    runId: 'abcd1234',
    marker: 'fitconform-run-abcd1234',
    farYear: 1991,
    target: 'http://127.0.0.1:1/',
    at: '2026-01-01T00:00:00Z',
  })
  ledger.record({ type: 'profile', role: 'limited-token', field: 'athlete_type', value: 'x' })
  ledger.record({ type: 'created', url: 'not a url', role: 'token', scenario: 'a' })
  const work = readOpenWork(ledger.file)
  expect(work.run?.farYear).toBe(1991)
  expect(work.toRestore).toEqual([])
  expect(work.toDelete).toEqual([])
  expect(work.refusedLines).toEqual([
    expect.stringMatching(/^line 2: not a role whose profile the run reads/),
    expect.stringMatching(/^line 3: no URL/),
  ])
})
