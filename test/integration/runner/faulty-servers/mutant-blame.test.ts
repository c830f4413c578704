// Blame exactly, measured on servers with one fault each: the reference server's mutants, run with the
// self-test machinery in-process. Each must be blamed on its own rule and at most two others, each
// tied to it by a named section of the spec. A representative subset (one mutant per kind of fault:
// status, body field, feed item, media type, HEAD, paging, 403, body not JSON, and four that once
// leaked into other rules' checks) keeps this within npm test's budget; `npx fitconform selftest`
// judges every mutant the same way (src/selftest/blame.ts).
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { loadSuites } from '../../../../src/load/load-suites.js'
import { judgeBlame } from '../../../../src/selftest/blame.js'
import { runSelftest } from '../../../../src/selftest/run-selftest.js'
import { selftestTargets } from '../../../../src/selftest/selftest-targets.js'

const SUITES = fileURLToPath(new URL('../../../../suites', import.meta.url))

const MUTANTS = [
  'create-answers-200',
  'delete-answers-200',
  'edit-answers-201',
  'has-map-boolean',
  'feed-has-map-boolean',
  'user-id-string',
  'user-media-type-wrong',
  'head-with-body',
  'previous-drops-page-size',
  'revoked-answers-401',
  'user-body-not-json',
  // Once blamed on other rules too: a check of theirs ran without the precondition it needs.
  'head-no-content-type',
  'edit-refuses-non-editable',
  'feed-lists-other-users-activities',
  // A scoped page without items: FEED-FIELDS alone, not the scope rules whose checks read the items.
  'scoped-page-items-missing',
]

it('blames each one-fault server on its own rule and at most two others tied to it by a section', async () => {
  const loaded = await loadSuites([SUITES])
  const byId = new Map(loaded.rules.map((rule) => [rule.id, rule]))
  const rows = await runSelftest(selftestTargets(MUTANTS), loaded.scenarios, loaded.rules, {
    concurrency: MUTANTS.length,
    timeoutMs: 5_000,
  })
  expect(rows.map((row) => row.target).sort()).toEqual([...MUTANTS].sort())
  for (const row of rows) {
    const blame = judgeBlame(row.rule!, row.failedRules, byId)
    expect({ mutant: row.target, ownRuleFailed: blame.ownRuleFailed, untied: blame.untied }).toEqual({
      mutant: row.target,
      ownRuleFailed: true,
      untied: [],
    })
    expect(blame.withinBudget, `${row.target} also blamed ${blame.others.join(', ')}`).toBe(true)
    // The self-test's own verdict reads the same judgement.
    expect(row).toMatchObject({ ok: true, blame })
  }
}, 240_000)
