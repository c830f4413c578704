// A list matcher over `body.items[*]` on an answer without an items list judges nothing (docs/scenario-format.md,
// "Checks"): the list's absence is the schema's fault alone. What must keep its verdict is judged here too.
import { expect, it } from 'vitest'
import type { Check } from '../../../../src/model/scenario.js'
import { evaluateChecks } from '../../../../src/execute/step/evaluate-checks.js'

function check(path: string, matcher: string, expected: unknown): Check {
  return {
    path,
    matcher,
    expected,
    rules: ['SCOPE-NO-EARLIER-THAN'],
    at: { file: 'f.yaml', line: 1, column: 1 },
    severity: 'failure',
  }
}

const BOUND = check('body.items[*] | feedItemView | field(start)', 'every', { notBefore: '2031-06-30' })
const LISTED = check('body.items[*].uri | lastSegment', 'contains', '7')
const NOT_LISTED = check('body.items[*].uri | lastSegment', 'notContains', '7')
const AT_LEAST_TWO = check('body.items[*]', 'minLength', 2)

it('does not judge a list matcher over a page without items, and says why', () => {
  const results = evaluateChecks([BOUND, LISTED, NOT_LISTED, AT_LEAST_TWO], { body: { size: 0 } })
  for (const result of results) expect(result).toMatchObject({ ok: true, notJudged: true })
  expect(results[0]!.message).toBe(
    "body.items[*] | feedItemView | field(start): not judged, as body.items is absent; whether it must be a list is the schema's to judge",
  )
})

it('does not judge one over items that are not a list, nor over an answer that is not JSON', () => {
  const [onString] = evaluateChecks([BOUND], { body: { items: 'none' } })
  expect(onString).toMatchObject({ ok: true, notJudged: true })
  expect(onString!.message).toContain('body.items is not a list ("none")')
  expect(evaluateChecks([LISTED], { bodyText: '<html>' })[0]).toMatchObject({ ok: true, notJudged: true })
})

it('judges an empty list: every holds, contains and minLength fail', () => {
  const results = evaluateChecks([BOUND, LISTED, NOT_LISTED, AT_LEAST_TWO], { body: { items: [] } })
  expect(results.map((result) => [result.ok, result.notJudged])).toEqual([
    [true, undefined],
    [false, undefined],
    [true, undefined],
    [false, undefined],
  ])
})

it('judges a list that is there: a start before the bound fails', () => {
  const [result] = evaluateChecks([BOUND], {
    body: { items: [{ uri: '/fitnessActivities/7', start_time: '2031-06-01' }] },
  })
  expect(result).toMatchObject({ ok: false })
  expect(result).not.toHaveProperty('notJudged')
})

it('keeps the verdict of a check on the list itself, of a matcher that is no list matcher, and of a capture', () => {
  const scope = { body: { size: 0 }, mine: undefined }
  const kept = [
    check('body.items', 'type', 'array'),
    check('body.items', 'present', true),
    check('body.items', 'minLength', 0),
    check('body.items[*].uri | lastSegment | sort', 'equals', ['7']),
    check('mine[*] | field(start)', 'every', { notBefore: '2031-06-30' }),
    check('body.items[*] ?? body.entries', 'minLength', 1),
  ]
  for (const result of evaluateChecks(kept, scope)) {
    expect(result, result.target).toMatchObject({ ok: false })
    expect(result, result.target).not.toHaveProperty('notJudged')
  }
})
