import { describe, expect, it } from 'vitest'
import { createFinalizer } from '../../../src/execute/finalize/finalize-run.js'
import { markScenario } from '../../../src/known-failures/apply-known-failures.js'
import type { KnownFailure } from '../../../src/known-failures/known-failures.js'
import { isFailingRun, staleRuleEntries, type ReportedScenarioResult } from '../../../src/model/reported-result.js'
import type { RunResult, ScenarioResult } from '../../../src/model/result.js'
import { assertion, reported, runResult, scenario, step } from '../../fixtures/report/build-result.js'

/** Known failures as the finalize stage applies them (masking off: these tests are about expectations). */
const applyKnownFailures = (result: RunResult, known: readonly KnownFailure[]) =>
  reported(result, { known, showPersonalData: true })

const at = { file: 'known.yaml', line: 1, column: 3 }
const entry = (fields: Partial<KnownFailure>): KnownFailure => ({ reason: 'tracked', at, ...fields })

const failingOn = (id: string, ...ruleSets: string[][]): ScenarioResult =>
  scenario({
    id,
    rules: ['USER-READ'],
    steps: [step({ assertions: ruleSets.map((rules) => assertion({ ok: false, rules })) })],
  })
const timingOut = (id: string): ScenarioResult =>
  scenario({
    id,
    steps: [step({ status: 'error', assertions: [], error: { code: 'E_TIMEOUT', kind: 'error', message: 'timeout' } })],
  })
const passing = (id: string, rules = ['USER-READ']): ScenarioResult => scenario({ id, rules })

describe('markScenario', () => {
  it.each([
    {
      name: 'a failure listed by scenario id is expected',
      s: failingOn('a', ['R1']),
      known: [entry({ scenario: 'a' })],
      expectation: 'expected-failure',
    },
    {
      name: 'a failure listed by rule is expected',
      s: failingOn('a', ['R1']),
      known: [entry({ rule: 'R1' })],
      expectation: 'expected-failure',
    },
    {
      name: 'a failure on an unlisted rule is not',
      s: failingOn('a', ['R1'], ['R2']),
      known: [entry({ rule: 'R1' })],
      expectation: undefined,
    },
    {
      name: 'each failed rule may come from its own entry',
      s: failingOn('a', ['R1'], ['R2']),
      known: [entry({ rule: 'R1' }), entry({ rule: 'R2' })],
      expectation: 'expected-failure',
    },
    {
      name: 'a check without rules falls back to the scenario rules',
      s: failingOn('a', []),
      known: [entry({ rule: 'USER-READ' })],
      expectation: 'expected-failure',
    },
    {
      name: 'a rule entry for another scenario does not apply',
      s: failingOn('a', ['R1']),
      known: [entry({ scenario: 'b', rule: 'R1' })],
      expectation: undefined,
    },
    {
      name: 'a transport error is not covered by a rule entry',
      s: timingOut('a'),
      known: [entry({ rule: 'USER-READ' })],
      expectation: undefined,
    },
    {
      name: 'a transport error is covered by a scenario entry',
      s: timingOut('a'),
      known: [entry({ scenario: 'a' })],
      expectation: 'expected-failure',
    },
    {
      name: 'a listed scenario that passes is unexpected',
      s: passing('a'),
      known: [entry({ scenario: 'a' })],
      expectation: 'unexpectedly-passed',
    },
    {
      name: 'an unlisted pass is just a pass',
      s: passing('a'),
      known: [entry({ scenario: 'b' })],
      expectation: undefined,
    },
  ])('$name', ({ s, known, expectation }) => {
    const marked: ReportedScenarioResult = markScenario(s, known)
    expect(marked.expectation).toBe(expectation)
  })
})

describe('applyKnownFailures', () => {
  it('turns covered failures into expected failures that do not fail the run', () => {
    const result = applyKnownFailures(runResult([failingOn('a', ['R1']), passing('b')]), [
      entry({ scenario: 'a', link: 'https://t/1' }),
    ])
    expect(result.scenarios[0]).toMatchObject({
      status: 'failed',
      expectation: 'expected-failure',
      knownFailure: { reason: 'tracked', link: 'https://t/1', scenario: 'a' },
    })
    expect(result.summary).toMatchObject({ passed: 1, failed: 0, expectedFailures: 1, unexpectedlyPassed: 0 })
    expect(isFailingRun(result)).toBe(false)
    expect(result.knownFailures).toEqual([
      { reason: 'tracked', link: 'https://t/1', scenario: 'a', outcome: 'failed-as-expected', scenarios: ['a'] },
    ])
  })

  it('keeps a new failure failing', () => {
    const result = applyKnownFailures(runResult([failingOn('a', ['R1'], ['R2'])]), [entry({ rule: 'R1' })])
    expect(result.summary).toMatchObject({ failed: 1, expectedFailures: 0 })
    expect(isFailingRun(result)).toBe(true)
  })

  it('reports a stale rule entry once, as the entry, without blaming the scenarios that name the rule', () => {
    const result = applyKnownFailures(runResult([passing('a', ['R1']), passing('b', ['R1']), passing('c', ['R2'])]), [
      entry({ rule: 'R1' }),
    ])
    expect(result.scenarios.map((s) => s.expectation)).toEqual([undefined, undefined, undefined])
    expect(result.summary).toMatchObject({ passed: 3, failed: 0, unexpectedlyPassed: 1 })
    expect(staleRuleEntries(result).map((report) => report.rule)).toEqual(['R1'])
    expect(result.knownFailures?.[0]).toMatchObject({ outcome: 'unexpectedly-passed', scenarios: ['a', 'b'] })
    expect(isFailingRun(result)).toBe(true)
  })

  it('does not call a rule entry stale while one of its scenarios still fails on it', () => {
    const result = applyKnownFailures(runResult([passing('a', ['R1']), failingOn('b', ['R1'])]), [
      entry({ rule: 'R1' }),
    ])
    expect(result.scenarios.map((s) => s.expectation)).toEqual([undefined, 'expected-failure'])
    expect(isFailingRun(result)).toBe(false)
  })

  it('says when an entry selected nothing that ran', () => {
    const skipped = scenario({ id: 'a', status: 'skipped', skipReason: 'no token', steps: [] })
    const result = applyKnownFailures(runResult([skipped]), [entry({ scenario: 'a' }), entry({ rule: 'NOWHERE' })])
    expect(result.knownFailures?.map((report) => report.outcome)).toEqual(['not-run', 'not-run'])
    expect(result.summary).toMatchObject({ skipped: 1, failed: 0 })
  })

  it('leaves the input untouched', () => {
    const input = runResult([failingOn('a', ['R1'])])
    const before = JSON.stringify(input)
    applyKnownFailures(input, [entry({ scenario: 'a' })])
    expect(JSON.stringify(input)).toBe(before)
  })
})

describe('the finalize stage', () => {
  it('marks each scenario as it ends and the whole run once at the end, for reporters and the exit code alike', () => {
    const finalizer = createFinalizer({ knownFailures: [entry({ scenario: 'a' })], showPersonalData: true, rules: [] })
    const result = runResult([failingOn('a', ['R1']), passing('b')])
    expect(result.scenarios.map((s) => finalizer.scenario(s).expectation ?? '-')).toEqual(['expected-failure', '-'])
    const final = finalizer.run(result)
    expect(final.summary).toMatchObject({ failed: 0, expectedFailures: 1 })
    expect(final.rules.find((rule) => rule.id === 'R1')).toMatchObject({ status: 'expected-failure', failed: 0 })
    expect(isFailingRun(final)).toBe(false)
  })
})
