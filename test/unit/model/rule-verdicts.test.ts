// Honest green: a check whose `when` did not hold passed without judging anything, so a rule that only
// such checks name is skipped, never passed; one check that judged it is enough to pass it.
import { expect, it } from 'vitest'
import { computeRuleVerdicts } from '../../../src/model/rule-verdicts.js'
import type { AssertionResult, ScenarioResult } from '../../../src/model/result.js'
import type { Rule } from '../../../src/model/scenario.js'

const at = { file: 'suites/scopes/start-time-scopes.yaml', line: 1, column: 1 }
const catalogue: Rule[] = ['FEED-FIELDS', 'SCOPE-NO-EARLIER-THAN'].map((id) => ({
  id,
  section: '§2.2',
  quote: '',
  appliesTo: 'server',
  irregularity: false,
  at,
}))

function check(rule: string, ok: boolean, notJudged = false): AssertionResult {
  return {
    ok,
    severity: 'failure',
    rules: [rule],
    target: 'body.items',
    matcher: 'every',
    message: notJudged ? 'not judged' : 'judged',
    ...(notJudged ? { notJudged: true as const } : {}),
  }
}

function scenario(id: string, assertions: AssertionResult[]): ScenarioResult {
  const failed = assertions.some((assertion) => !assertion.ok)
  return {
    id,
    title: id,
    file: at.file,
    at,
    rules: ['FEED-FIELDS', 'SCOPE-NO-EARLIER-THAN'],
    tags: [],
    status: failed ? 'failed' : 'passed',
    durationMs: 1,
    warnings: [],
    steps: [{ name: 'read', at, status: failed ? 'failed' : 'passed', durationMs: 1, assertions, attempts: 1 }],
    cleanup: [],
  }
}

const statusOf = (scenarios: ScenarioResult[], rule: string) =>
  computeRuleVerdicts(scenarios, catalogue).find((verdict) => verdict.id === rule)?.status

it('reports a rule whose every check went unjudged as skipped, not passed', () => {
  const page = scenario('page-without-items', [
    check('FEED-FIELDS', false),
    check('SCOPE-NO-EARLIER-THAN', true, true),
    check('SCOPE-NO-EARLIER-THAN', true, true),
  ])
  expect(statusOf([page], 'SCOPE-NO-EARLIER-THAN')).toBe('skipped')
  expect(statusOf([page], 'FEED-FIELDS')).toBe('failed')
})

it('passes the rule once one check judged it, in the same scenario or another', () => {
  const unjudged = check('SCOPE-NO-EARLIER-THAN', true, true)
  const judged = check('SCOPE-NO-EARLIER-THAN', true)
  expect(statusOf([scenario('both', [unjudged, judged])], 'SCOPE-NO-EARLIER-THAN')).toBe('passed')
  expect(statusOf([scenario('unjudged', [unjudged]), scenario('judged', [judged])], 'SCOPE-NO-EARLIER-THAN')).toBe(
    'passed',
  )
})
