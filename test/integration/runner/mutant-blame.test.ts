// Blame exactly, measured on servers with one fault each: the reference server's mutants, run with the
// self-test machinery in-process. Each must be blamed on its own rule and at most two others, each
// tied to it by a named section of the spec. A representative subset (one mutant per kind of fault:
// status, body field, feed item, media type, HEAD, paging, 403, body not JSON) keeps this within
// npm test's budget; `npx fitconform selftest --json` measures every mutant.
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { loadSuites } from '../../../src/load/load-suites.js'
import type { Rule } from '../../../src/model/scenario.js'
import { runSelftest } from '../../../src/selftest/run-selftest.js'
import { selftestTargets } from '../../../src/selftest/selftest-targets.js'

const SUITES = fileURLToPath(new URL('../../../suites', import.meta.url))

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
]

/** `§4 rule 2; §2.2` → ['§4 rule 2', '§2.2']. */
function sectionsOf(rule: Rule | undefined): string[] {
  return (rule?.section ?? '').split(';').map((part) => part.trim()).filter(Boolean)
}

/** Two rules are tied when one names a section that is, or contains, a section the other names (§7 contains §7 rule 3). */
function isTied(a: Rule | undefined, b: Rule | undefined): boolean {
  const contains = (outer: string, inner: string): boolean => inner === outer || inner.startsWith(`${outer} `)
  return sectionsOf(a).some((x) => sectionsOf(b).some((y) => contains(x, y) || contains(y, x)))
}

it('blames each one-fault server on its own rule and at most two others tied to it by a section', async () => {
  const loaded = await loadSuites([SUITES])
  const byId = new Map(loaded.rules.map((rule) => [rule.id, rule]))
  const rows = await runSelftest(selftestTargets(MUTANTS), loaded.scenarios, loaded.rules, { concurrency: MUTANTS.length, timeoutMs: 5_000 })
  expect(rows.map((row) => row.target).sort()).toEqual([...MUTANTS].sort())
  const blame = rows.map((row) => {
    const others = row.failedRules.filter((rule) => rule !== row.rule)
    const untied = others.filter((rule) => !isTied(byId.get(rule), byId.get(row.rule ?? "")))
    return { mutant: row.target, ownRuleFailed: row.failedRules.includes(row.rule!), others, untied }
  })
  for (const entry of blame) {
    expect(entry, entry.mutant).toMatchObject({ ownRuleFailed: true, untied: [] })
    expect(entry.others.length, `${entry.mutant} also blamed ${entry.others.join(', ')}`).toBeLessThanOrEqual(2)
  }
}, 240_000)
