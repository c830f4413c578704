// untilServerDateAfter resends a request: only reads may carry it, and its value must be a date.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'

const folder = mkdtempSync(join(tmpdir(), 'fitconform-clock-wait-'))
let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A scenario whose first step captures `changed` and whose second step is `step` (YAML lines at 6 spaces). */
async function load(step: string) {
  const file = join(folder, `case-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(
    file,
    `scenarios:
  - id: clock
    title: waits on the server's clock
    rules: [USER-READ]
    steps:
      - name: read
        request: { method: GET, url: /user }
        capture: { changed: headers.date }
${step}`,
  )
  return { file, loaded: await loadScenarioFile(file, knownRules) }
}

it('keeps the template on a GET step', async () => {
  const { loaded } = await load(`      - name: read later
        request: { method: GET, url: /user }
        untilServerDateAfter: \${changed}
`)
  expect(loaded.diagnostics).toEqual([])
  expect(loaded.scenarios[0]!.steps[1]!.untilServerDateAfter).toBe('${changed}')
})

it.each(['POST', 'PUT', 'DELETE'])(
  'reports untilServerDateAfter on a %s step at the line and column of its value',
  async (method) => {
    const { file, loaded } = await load(`      - name: change
        request: { method: ${method}, url: /fitnessActivities/1 }
        untilServerDateAfter: \${changed}
`)
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_SCENARIO_SCHEMA',
        kind: 'load',
        message: `untilServerDateAfter is allowed only on a GET or HEAD step, not on ${method}`,
        at: { file, line: 11, column: 31 },
      }),
    ])
  },
)

it('reports it on a step without a request', async () => {
  const { loaded } = await load(`      - name: only waits
        untilServerDateAfter: \${changed}
`)
  expect(loaded.diagnostics.map((d) => d.message)).toEqual([
    'untilServerDateAfter is allowed only on a GET or HEAD step, not on a step without a request',
  ])
})

it('reports a value that is neither a date nor a template, and a variable never captured', async () => {
  const { loaded } = await load(`      - name: read later
        request: { method: HEAD, url: /user }
        untilServerDateAfter: soon
      - name: read later again
        request: { method: GET, url: /user }
        untilServerDateAfter: \${chnged}
`)
  expect(loaded.diagnostics.map((d) => [d.code, d.at?.line])).toEqual([
    ['E_SCENARIO_SCHEMA', 11],
    ['E_TEMPLATE_UNDEFINED', 14],
  ])
})
