import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createLedger, readOpenWork } from '../../../src/execute/ledger.js'

let dir = ''
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('counts the account summary so that it adds up: only a changed value can be restored', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fitconform-ledger-'))
  const ledger = createLedger(dir, 'abcd1234', (value) => value)
  const restore = { method: 'PUT', url: 'http://127.0.0.1:1/profile', role: 'token' as const, headers: {}, body: '{}' }
  ledger.record({ type: 'restore', scenario: 'profile-edit', requests: [restore] })
  ledger.record({ type: 'restore', scenario: 'profile-edit', requests: [restore] }) // a second PUT of the same scenario
  ledger.record({ type: 'restored', scenario: 'profile-edit' })
  // A cleanup that had nothing to undo (its value was never captured) still closes, but changed nothing.
  ledger.record({ type: 'restored', scenario: 'profile-refused' })
  ledger.record({ type: 'created', url: 'http://127.0.0.1:1/fitnessActivities/1', role: 'token', scenario: 'a' })
  ledger.record({ type: 'deleted', url: 'http://127.0.0.1:1/fitnessActivities/1' })
  ledger.record({ type: 'deleted', url: 'http://127.0.0.1:1/fitnessActivities/1' })
  expect(readOpenWork(ledger.file).counts).toMatchObject({ created: 1, deleted: 1, changed: 1, restored: 1 })
})
