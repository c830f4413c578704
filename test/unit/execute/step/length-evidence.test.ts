import { expect, it } from 'vitest'
import { evaluateChecks } from '../../../../src/execute/step/evaluate-checks.js'
import type { Check } from '../../../../src/model/scenario.js'

const check = (matcher: string, expected: unknown): Check => ({
  path: 'body.items',
  matcher,
  expected,
  rules: ['FEED-PAGE-SIZE'],
  at: { file: 'x.yaml', line: 1, column: 1 },
  severity: 'failure',
})
const items = Array.from({ length: 25 }, (_, index) => ({ uri: `/fitnessActivities/${index}`, type: 'Running' }))

it('shows the length a length check found ("got 25 items"), never the whole array', () => {
  const [result] = evaluateChecks([check('length', 4)], { body: { items } })
  expect(result).toMatchObject({
    ok: false,
    actual: '25 items',
    message: 'body.items: expected of length 4, got 25 items',
  })
  expect(JSON.stringify(result)).not.toContain('fitnessActivities')
})

it('keeps the value itself for other matchers and for a value that has no length', () => {
  expect(evaluateChecks([check('length', 4)], { body: { items: 7 } })[0]).toMatchObject({ ok: false, actual: 7 })
  expect(evaluateChecks([check('minLength', 2)], { body: { items } })[0]).toMatchObject({ ok: true })
})
