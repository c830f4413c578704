import { describe, expect, it } from 'vitest'
import type { Scenario, Step, TokenRole } from '../../../src/model/scenario.js'
import { notTestedForMissingTokens } from '../../../src/plan/not-tested.js'
import { planRun } from '../../../src/plan/plan-run.js'

const at = { file: 'suites/x.yaml', line: 1, column: 1 }
const step = (name: string, rules: readonly string[], fields: Partial<Step> = {}): Step => ({
  name,
  at,
  expect: {
    checks: rules.map((rule) => ({
      path: 'status',
      matcher: 'equals',
      expected: 201,
      rules: [rule],
      at,
      severity: 'failure' as const,
    })),
  },
  capture: {},
  ...fields,
})
const scenario = (id: string, tokens: readonly TokenRole[], steps: readonly Step[]): Scenario => ({
  id,
  title: id,
  file: `suites/${id}.yaml`,
  at,
  rules: [],
  tags: [],
  tokens,
  writes: true,
  exclusive: false,
  steps,
  cleanup: [],
})

describe('notTestedForMissingTokens', () => {
  it('counts a rule judged inside a parallel: group as judged, so a missing token does not claim it', () => {
    const grouped = scenario(
      'creates-in-flight',
      ['token'],
      [step('five creates at once', [], { parallel: [{ step: step('create', ['CREATE-LOCATION']), repeat: 5 }] })],
    )
    const needsOther = scenario(
      'other-user-cannot-read',
      ['token', 'other-token'],
      [step('read as the other user', ['CREATE-LOCATION', 'AUTHZ-OWNER'])],
    )
    const available = new Set<TokenRole>(['token'])
    const plan = planRun([grouped, needsOther], { readOnly: false, availableRoles: available })
    expect(notTestedForMissingTokens(plan, available)).toEqual([
      { flag: '--other-token', env: 'FITCONFORM_OTHER_TOKEN', scenarios: 1, cells: 0, rules: ['AUTHZ-OWNER'] },
    ])
  })
})
