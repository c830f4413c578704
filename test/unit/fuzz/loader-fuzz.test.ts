import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { afterAll, expect, it } from 'vitest'
import { loadScenarioFile } from '../../../src/load/load-suites.js'
import { loadRules } from '../../../src/load/load-rules.js'

const folder = mkdtempSync(join(tmpdir(), 'fitconform-fuzz-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

let counter = 0
async function load(text: string) {
  const file = join(folder, `case-${counter++}.yaml`)
  writeFileSync(file, text)
  const { rules } = await loadRules()
  return loadScenarioFile(file, new Set(rules.map((rule) => rule.id)))
}

/** Whatever a user writes, the loader answers with diagnostics (file:line:col), never with a stack trace. */
function expectDiagnosticsOrScenarios(outcome: Awaited<ReturnType<typeof load>>): void {
  for (const diagnostic of outcome.diagnostics) {
    expect(diagnostic.kind).toBe('load')
    expect(diagnostic.at?.line).toBeGreaterThanOrEqual(1)
    expect(diagnostic.message.length).toBeGreaterThan(0)
  }
  expect(outcome.diagnostics.length > 0 || outcome.scenarios.length > 0).toBe(true)
}

const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }))
const keys = fc.constantFrom(
  'scenarios',
  'id',
  'title',
  'rules',
  'steps',
  'name',
  'request',
  'method',
  'url',
  'expect',
  'status',
  'checks',
  'path',
  'equals',
  'capture',
  'creates',
  'follow',
  'next',
  'schema',
  'headers',
  'json',
  'auth',
  'wait',
  'skipIf',
  'every',
  'like',
  'x-unknown',
)
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(keys, tie('node'), { maxKeys: 5 }),
  ),
})).node

it('never throws on arbitrary text', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
      expectDiagnosticsOrScenarios(await load(text))
    }),
    { numRuns: 150 },
  )
})

it('never throws on arbitrary YAML structures built from scenario keywords', async () => {
  await fc.assert(
    fc.asyncProperty(tree, async (data) => {
      expectDiagnosticsOrScenarios(await load(stringify({ scenarios: [data] })))
    }),
    { numRuns: 200 },
  )
})

it('never throws on a valid scenario with one value replaced by garbage', async () => {
  const valid = {
    scenarios: [
      {
        id: 'a',
        title: 't',
        rules: ['USER-READ'],
        steps: [
          {
            name: 's',
            request: { method: 'GET', url: '/user' },
            expect: { status: 200, checks: [{ path: 'body.userID', type: 'integer' }] },
            capture: { id: 'body.userID' },
          },
        ],
      },
    ],
  }
  const paths = [
    ['id'],
    ['rules'],
    ['steps', 0, 'request', 'url'],
    ['steps', 0, 'expect', 'status'],
    ['steps', 0, 'expect', 'checks', 0, 'path'],
    ['steps', 0, 'expect', 'checks', 0, 'type'],
    ['steps', 0, 'capture', 'id'],
    ['steps', 0, 'request', 'method'],
  ]
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths),
      fc.oneof(
        scalar,
        fc.string().map((s) => '${' + s + '}'),
        fc.string().map((s) => `body.${s} | ${s}(`),
      ),
      async (path, garbage) => {
        const copy = structuredClone(valid) as Record<string, unknown>
        let node = (copy['scenarios'] as unknown[])[0] as Record<string | number, unknown>
        for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
        node[path.at(-1)!] = garbage
        expectDiagnosticsOrScenarios(await load(stringify(copy)))
      },
    ),
    { numRuns: 200 },
  )
})
