// A check's `when:` (docs/scenario-format.md, "Checks"): loaded with its place, judged on the same
// response, templates in its expected value rendered, and a bad one is a load error at file:line:col.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'
import { evaluateChecks } from '../../../src/execute/step/evaluate-checks.js'

const folder = mkdtempSync(join(tmpdir(), 'fitconform-when-'))
let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function load(check: string) {
  const file = join(folder, `case-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(
    file,
    `scenarios:
  - id: when
    title: one step
    rules: [EDIT-FULL-RESPONSE]
    steps:
      - name: read
        request: { method: GET, url: /user }
        capture: { sent: body.name }
      - name: the step
        request: { method: GET, url: /user }
        expect:
          checks:
            - ${check}
`,
  )
  return { file, loaded: await loadScenarioFile(file, knownRules) }
}

const CHECK = '{ path: body.answer, equals: "${sent}", when: { path: body.stored, equals: "${sent}" } }'

it('judges the check when the condition holds, its template rendered from the same scope', async () => {
  const { loaded } = await load(CHECK)
  expect(loaded.diagnostics).toEqual([])
  const checks = loaded.scenarios[0]!.steps[1]!.expect.checks
  const judged = evaluateChecks(checks, { sent: 'new', body: { stored: 'new', answer: 'old' } })
  expect(judged).toMatchObject([{ ok: false, rules: ['EDIT-FULL-RESPONSE'], expected: 'new', actual: 'old' }])
  expect(judged[0]).not.toHaveProperty('notJudged')
  expect(evaluateChecks(checks, { sent: 'new', body: { stored: 'new', answer: 'new' } })[0]!.ok).toBe(true)
})

it('passes as not judged when the condition does not hold, and says why', async () => {
  const { loaded } = await load(CHECK)
  const [result] = evaluateChecks(loaded.scenarios[0]!.steps[1]!.expect.checks, {
    sent: 'new',
    body: { stored: 'old', answer: 'old' },
  })
  expect(result).toMatchObject({
    ok: true,
    notJudged: true,
    message: 'body.answer: not judged, as body.stored is not equal to "new"',
  })
})

it('renders nothing of a check it leaves out: a page without items is not judged, not "cannot compare"', async () => {
  const { loaded } = await load(
    '{ path: body.size, equals: "${body.items | length}", when: { path: body.items, type: array } }',
  )
  expect(loaded.diagnostics).toEqual([])
  const checks = loaded.scenarios[0]!.steps[1]!.expect.checks
  expect(evaluateChecks(checks, { body: { size: 2 } })).toMatchObject([
    { ok: true, notJudged: true, message: 'body.size: not judged, as body.items is not of type array' },
  ])
  expect(evaluateChecks(checks, { body: { size: 2, items: [{}, {}, {}] } })).toMatchObject([
    { ok: false, expected: 3, actual: 2 },
  ])
})

it('reports a when with no matcher, two matchers or an unknown one at its place', async () => {
  for (const [when, message] of [
    ['{ path: body.stored }', 'E_SCENARIO_SCHEMA'],
    ['{ path: body.stored, equals: 1, present: true }', 'E_SCENARIO_SCHEMA'],
    ['{ path: body.stored, equalz: 1 }', 'unknown matcher'],
  ] as const) {
    const { file, loaded } = await load(`{ path: body.answer, equals: 1, when: ${when} }`)
    expect(loaded.diagnostics.length, when).toBeGreaterThan(0)
    const [first] = loaded.diagnostics
    expect(first!.at?.file).toBe(file)
    expect(first!.at?.line).toBe(13)
    expect(JSON.stringify(loaded.diagnostics)).toContain(message)
  }
})
