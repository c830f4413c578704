import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { formatSelftestTable } from '../../../src/cli/selftest-command.js'
import { loadSuites } from '../../../src/load/load-suites.js'
import { runSelftest } from '../../../src/selftest/run-selftest.js'
import { selftestTargets } from '../../../src/selftest/selftest-targets.js'

const USER_SUITE = fileURLToPath(new URL('../../../suites/user', import.meta.url))

it('kills a mutant the scenarios cover, reports one they do not cover as SURVIVED, and passes the reference server', async () => {
  const loaded = await loadSuites([USER_SUITE])
  const targets = selftestTargets(['reference', 'user-id-string', 'has-map-boolean'])
  const rows = await runSelftest(targets, loaded.scenarios, loaded.rules, { concurrency: 3, timeoutMs: 5_000 })
  const byName = Object.fromEntries(rows.map((row) => [row.target, row]))
  expect(byName['reference']).toMatchObject({ ok: true, verdict: 'passed' })
  // userID as a string breaks USER-FIELDS, which the user scenarios check.
  expect(byName['user-id-string']).toMatchObject({ ok: true, verdict: 'killed', killedForItsRule: true })
  // has_map lives on activities: the user scenarios alone cannot see it.
  expect(byName['has-map-boolean']).toMatchObject({ ok: false, verdict: 'SURVIVED' })
  const table = formatSelftestTable(rows, 1000)
  expect(table).toMatch(/✘ has-map-boolean\s+ACTIVITY-HAS-MAP-TEXT\s+SURVIVED/)
  expect(table).toContain('Mutation score: 1/2 mutants killed (50%); 1/2 blamed exactly, 1/2 within the blame budget')
})
