// `accept:` implies the answer's media type and schema checks on a step that expects only a 2xx answer:
// the rule, each of its exceptions, and the overrides, seen in the loaded step.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'

const folder = mkdtempSync(join(tmpdir(), 'fitconform-implied-'))
let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The media type and schema the one step of a scenario checks, given its request and expect (flow maps). */
async function judged(request: string, expectation: string): Promise<{ mediaType?: unknown; schema?: string }> {
  const file = join(folder, `case-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(
    file,
    `scenarios:
  - id: implied
    title: one step
    rules: [USER-READ]
    steps:
      - name: the step
        request: ${request}
        expect: ${expectation}
`,
  )
  const loaded = await loadScenarioFile(file, knownRules)
  expect(loaded.diagnostics).toEqual([])
  const step = loaded.scenarios[0]!.steps[0]!
  const mediaType = step.expect.checks.find((check) => check.matcher === 'mediaType')?.expected
  return {
    ...(mediaType !== undefined ? { mediaType } : {}),
    ...(step.expect.schema ? { schema: step.expect.schema.representation } : {}),
  }
}

const GET_USER = '{ method: GET, url: /user, accept: User }'

it.each([
  ['a 2xx code implies both', GET_USER, '{ status: 200 }', { mediaType: 'User', schema: 'User' }],
  ['a list of 2xx codes implies both', GET_USER, '{ status: [200, 203] }', { mediaType: 'User', schema: 'User' }],
  ['the 2xx class implies both', GET_USER, '{ status: 2xx }', { mediaType: 'User', schema: 'User' }],
  ['mediaType: false turns the media type off', GET_USER, '{ status: 200, mediaType: false }', { schema: 'User' }],
  ['schema: false turns the schema off', GET_USER, '{ status: 200, schema: false }', { mediaType: 'User' }],
  ['both off', GET_USER, '{ status: 200, mediaType: false, schema: false }', {}],
  [
    "the step's own value wins",
    GET_USER,
    '{ status: 200, mediaType: ErrorMessage }',
    { mediaType: 'ErrorMessage', schema: 'User' },
  ],
  ['a non-2xx code implies nothing', GET_USER, '{ status: 403 }', {}],
  ['a list that admits an error implies nothing', GET_USER, '{ status: [200, 404] }', {}],
  ['another class implies nothing', GET_USER, '{ status: 4xx }', {}],
  ['status matchers imply nothing', GET_USER, '{ status: { gte: 200, lt: 300 } }', {}],
  ['no status implies nothing', GET_USER, '{ checks: [] }', {}],
  ['HEAD implies nothing (no body)', '{ method: HEAD, url: /user, accept: User }', '{ status: 200 }', {}],
  [
    'HEAD keeps a media type it names',
    '{ method: HEAD, url: /user, accept: User }',
    '{ status: 200, mediaType: User }',
    {
      mediaType: 'User',
    },
  ],
  ['noBody implies nothing', GET_USER, '{ status: 204, noBody: true }', {}],
  ['no accept implies nothing', '{ method: GET, url: /user }', '{ status: 200 }', {}],
])('%s', async (_case, request, expectation, checked) => {
  expect(await judged(request, expectation)).toEqual(checked)
})
