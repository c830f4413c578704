import { expect, it } from 'vitest'
import { formatSelftestTable, score } from '../../../src/cli/selftest-command.js'
import type { SelftestRow } from '../../../src/selftest/run-selftest.js'

const mutant = (
  target: string,
  rule: string,
  failedRules: string[],
  blame: SelftestRow['blame'],
  verdict: string,
): SelftestRow => ({
  target,
  rule,
  expectation: 'fail',
  failedScenarios: failedRules.length > 0 ? ['some-scenario'] : [],
  failedRules,
  killedForItsRule: failedRules.includes(rule),
  ...(blame ? { blame } : {}),
  ok: blame?.withinBudget ?? false,
  verdict,
  durationMs: 1,
})

const rows: SelftestRow[] = [
  {
    target: 'reference',
    expectation: 'pass',
    failedScenarios: [],
    failedRules: [],
    ok: true,
    verdict: 'passed',
    durationMs: 1,
  },
  mutant(
    'exact',
    'A',
    ['A'],
    { ownRuleFailed: true, others: [], untied: [], exact: true, withinBudget: true },
    'killed',
  ),
  mutant(
    'tied',
    'A',
    ['A', 'B'],
    { ownRuleFailed: true, others: ['B'], untied: [], exact: false, withinBudget: true },
    'killed; also blamed B (tied)',
  ),
  mutant(
    'leaky',
    'A',
    ['A', 'C'],
    { ownRuleFailed: true, others: ['C'], untied: ['C'], exact: false, withinBudget: false },
    'MIS-BLAMED: also blamed C (untied: C)',
  ),
  mutant('survivor', 'A', [], undefined, 'SURVIVED'),
]

it('counts mutants killed, blamed exactly and within the blame budget', () => {
  expect(score(rows)).toEqual({
    killed: 3,
    blamedExactly: 1,
    withinBlameBudget: 2,
    mutants: 4,
    conformingPassed: 1,
    conforming: 1,
  })
})

it('shows, under a mis-blamed mutant, the rules it was also blamed on, and the blame figures in the summary', () => {
  const table = formatSelftestTable(rows, 1000)
  expect(table).toMatch(/✘ leaky\s+A\s+some-scenario\n {4}MIS-BLAMED: also blamed C \(untied: C\)/)
  expect(table).toMatch(/✓ tied\s+A\s+some-scenario\n {4}killed; also blamed B \(tied\)/)
  expect(table).toMatch(/✓ exact\s+A\s+some-scenario\n/)
  expect(table).toMatch(/✘ survivor\s+A\s+SURVIVED/)
  expect(table).toContain(
    'Mutation score: 3/4 mutants killed (75%); 1/4 blamed exactly, 2/4 within the blame budget; conforming servers: 1/1 as expected',
  )
})
