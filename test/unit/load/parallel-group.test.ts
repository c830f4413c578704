// `parallel:` groups at load time: what a branch may see, what it captures, and each mistake
// reported at its line and column before anything is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'

const folder = mkdtempSync(join(tmpdir(), 'fitconform-parallel-load-'))
let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A scenario whose steps are `steps` (YAML lines at 6 spaces); its first step is on line 6. */
async function load(steps: string) {
  const file = join(folder, `case-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(
    file,
    `scenarios:
  - id: together
    title: sends steps together
    rules: [CREATE-STATUS]
    steps:
${steps}`,
  )
  return { file, loaded: await loadScenarioFile(file, knownRules) }
}

const CREATES = `      - name: three creates at once
        parallel:
          - name: create
            repeat: 3
            request: { method: POST, url: /fitnessActivities, json: { notes: "copy \${index}" } }
            creates: headers.location
            capture: { locations: headers.location }
          - name: read the user
            request: { method: GET, url: /user }
            capture: { user: body.userID }
`

it('builds the group: branches, repeat, and captures defined for the steps after it', async () => {
  const { loaded } = await load(`${CREATES}      - name: after
        request: { method: GET, url: "\${locations[2]}" }
        expect: { checks: [{ path: url, equals: "\${user}" }] }
`)
  expect(loaded.diagnostics).toEqual([])
  const [group, after] = loaded.scenarios[0]!.steps
  expect(group!.parallel!.map((branch) => [branch.step.name, branch.repeat])).toEqual([
    ['create', 3],
    ['read the user', undefined],
  ])
  expect(group!.parallel![0]!.step.creates).toBe('headers.location')
  expect(after!.request!.url).toBe('${locations[2]}')
  expect(loaded.scenarios[0]!.writes).toBe(true)
})

it('reports a branch that uses what a sibling captures, at its line and column', async () => {
  const { file, loaded } = await load(`      - name: two at once
        parallel:
          - name: create
            request: { method: POST, url: /fitnessActivities, json: {} }
            capture: { location: headers.location }
          - name: read it
            request: { method: GET, url: "\${location}" }
`)
  expect(loaded.diagnostics).toEqual([
    expect.objectContaining({ code: 'E_TEMPLATE_UNDEFINED', at: expect.objectContaining({ file, line: 12 }) }),
  ])
})

it('reports two branches capturing into one name', async () => {
  const { file, loaded } = await load(`      - name: two at once
        parallel:
          - name: first
            request: { method: GET, url: /user }
            capture: { user: body.userID }
          - name: second
            request: { method: GET, url: /user }
            capture: { user: body.userID }
`)
  expect(loaded.diagnostics).toEqual([
    expect.objectContaining({
      code: 'E_SCENARIO_SCHEMA',
      message: expect.stringContaining('"user" is captured by two steps of one parallel group'),
      at: { file, line: 13, column: 30 },
    }),
  ])
})

it('reports ${index} in a branch that is not repeated', async () => {
  const { loaded } = await load(`      - name: one at once
        parallel:
          - name: read
            request: { method: GET, url: "/user?n=\${index}" }
`)
  expect(loaded.diagnostics.map((d) => d.code)).toEqual(['E_TEMPLATE_UNDEFINED'])
})

it('reports a request on the group step itself', async () => {
  const { file, loaded } = await load(`      - name: a group with a request
        request: { method: GET, url: /user }
        parallel:
          - name: read
            request: { method: GET, url: /user }
`)
  expect(loaded.diagnostics).toEqual([
    expect.objectContaining({
      code: 'E_SCENARIO_SCHEMA',
      message: 'a step with parallel has only name, parallel and rule, not request',
      at: { file, line: 7, column: 18 },
    }),
  ])
})

it.each([
  [
    'a wait inside a group',
    `      - name: g
        parallel:
          - name: read
            wait: 100
            request: { method: GET, url: /user }
`,
    9,
  ],
])('refuses %s by the schema, at its line', async (_, steps, line) => {
  const { file, loaded } = await load(steps)
  expect(loaded.diagnostics).toEqual([
    expect.objectContaining({ code: 'E_SCENARIO_SCHEMA', at: expect.objectContaining({ file, line }) }),
  ])
})
