// Step templates (`templates:`, `include:`, `use:`): a step that uses one loads exactly as the step
// written out in full, and every mistake is a load error at the place that makes it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { findScenarioFiles } from '../../../src/load/find-scenario-files.js'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'
import type { Scenario } from '../../../src/model/scenario.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

let knownRules: ReadonlySet<string>
let dir: string
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
  dir = makeTempDir('step-templates-')
})

async function load(name: string, text: string): ReturnType<typeof loadScenarioFile> {
  const file = join(dir, name)
  writeFileSync(file, text)
  return loadScenarioFile(file, knownRules)
}

/** The loaded scenarios without source places: what the runner sees. */
function withoutPlaces(scenarios: readonly Scenario[]): unknown {
  return JSON.parse(
    JSON.stringify(scenarios, (key, value: unknown) => (key === 'at' || key === 'file' ? undefined : value)),
  )
}

const SCENARIO_HEAD = `scenarios:
  - id: templated
    title: A templated step
    rules: [ACTIVITY-READ]
    steps:
`

const WRITTEN_OUT = `${SCENARIO_HEAD}      - name: read it
        request:
          method: GET
          url: /fitnessActivities/1
          accept: FitnessActivity
          headers: { x-one: "1", x-two: "2" }
        expect:
          status: 304
          checks:
            - { path: headers.etag, present: true }
`

describe('use: a template', () => {
  it('loads as the step written out, the step’s own keys merged over the template (maps merge, the rest replaces)', async () => {
    const templated = await load(
      'templated.yaml',
      `templates:
  read:
    request:
      method: GET
      url: /fitnessActivities/1
      accept: FitnessActivity
      headers: { x-one: "1" }
    expect:
      status: 200
      checks:
        - { path: body.uri, present: true }
${SCENARIO_HEAD}      - name: read it
        use: read
        request:
          headers: { x-two: "2" }
        expect:
          status: 304
          checks:
            - { path: headers.etag, present: true }
`,
    )
    const plain = await load('plain.yaml', WRITTEN_OUT)
    expect(templated.diagnostics).toEqual([])
    expect(withoutPlaces(templated.scenarios)).toEqual(withoutPlaces(plain.scenarios))
  })

  it('takes templates from an included file, and a template may use another', async () => {
    writeFileSync(
      join(dir, 'library.yaml'),
      `templates:
  get-one:
    request: { method: GET, url: /fitnessActivities/1, accept: FitnessActivity, headers: { x-one: "1", x-two: "2" } }
  not-modified:
    use: get-one
    expect: { status: 304 }
`,
    )
    const templated = await load(
      'including.yaml',
      `include: library.yaml
${SCENARIO_HEAD}      - name: read it
        use: not-modified
        expect:
          checks:
            - { path: headers.etag, present: true }
`,
    )
    expect(templated.diagnostics).toEqual([])
    expect(withoutPlaces(templated.scenarios)).toEqual(withoutPlaces((await load('plain.yaml', WRITTEN_OUT)).scenarios))
    // The library on its own is a file of templates: no scenarios, no problems.
    expect(await loadScenarioFile(join(dir, 'library.yaml'), knownRules)).toEqual({ scenarios: [], diagnostics: [] })
  })

  it('reports an unknown template where it is used, with the nearest name', async () => {
    const { diagnostics } = await load(
      'unknown.yaml',
      `templates:
  read-activity:
    request: { method: GET, url: /user }
${SCENARIO_HEAD}      - name: read it
        use: read-activty
`,
    )
    expect(diagnostics).toEqual([
      {
        code: 'E_SCENARIO_SCHEMA',
        kind: 'load',
        message: 'unknown template "read-activty"',
        hint: 'did you mean "read-activity"?',
        at: { file: join(dir, 'unknown.yaml'), line: 10, column: 14 },
      },
    ])
  })

  it('reports a use: in a file that has no templates', async () => {
    const { diagnostics } = await load('none.yaml', `${SCENARIO_HEAD}      - name: read it\n        use: read\n`)
    expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.hint, diagnostic.at?.line])).toEqual([
      ['unknown template "read"', 'define it under templates: in this file, or include: a file that does', 7],
    ])
  })

  it('reports templates that use each other in a cycle', async () => {
    const { diagnostics } = await load(
      'cycle.yaml',
      `templates:\n  a:\n    use: b\n  b:\n    use: a\n${SCENARIO_HEAD}      - name: read it\n        use: b\n`,
    )
    expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.at?.line])).toEqual([
      ['templates use each other in a cycle: b → a → b', 3],
    ])
  })

  it('reports a name defined twice, in a file and a file it includes', async () => {
    writeFileSync(join(dir, 'twice.yaml'), `templates:\n  a:\n    request: { method: GET, url: /user }\n`)
    const { diagnostics } = await load(
      'again.yaml',
      `include: twice.yaml\ntemplates:\n  a:\n    request: { method: GET, url: /profile }\n${SCENARIO_HEAD}      - name: read it\n        use: a\n`,
    )
    expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.at?.line])).toEqual([
      [expect.stringMatching(/^template "a" is defined twice \(first at .*twice\.yaml:3:5\)$/), 3],
    ])
  })

  it('reports a key the merged step may not have through the schema, at the step that used the template', async () => {
    const { diagnostics } = await load(
      'bad-key.yaml',
      `templates:
  read:
    request: { method: GET, url: /user, acept: User }
${SCENARIO_HEAD}      - name: read it
        use: read
`,
    )
    expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.hint])).toContainEqual([
      'unknown key "acept" in templates.read.request',
      'did you mean "accept"?',
    ])
  })
})

describe('what a template may hold that a step may not', () => {
  it('a template holds a part of a request and a branch’s repeat; the step that uses it must end whole', async () => {
    const branch = await load(
      'partial.yaml',
      `templates:
  create:
    repeat: 2
    request: { method: POST }
${SCENARIO_HEAD}      - name: create together
        parallel:
          - name: create one
            use: create
            request: { url: /fitnessActivities }
`,
    )
    expect(branch.diagnostics).toEqual([])
    const unfinished = await load(
      'unfinished.yaml',
      `templates:
  create:
    request: { method: POST }
${SCENARIO_HEAD}      - name: create
        use: create
`,
    )
    expect(unfinished.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'missing key "url" in scenarios[0].steps[0].request',
    ])
  })

  it('reports repeat in a step outside parallel: as an unknown key there, saying where it belongs', async () => {
    const { diagnostics } = await load(
      'repeat.yaml',
      `${SCENARIO_HEAD}      - name: read it
        repeat: 2
        request: { method: GET, url: /user }
`,
    )
    expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.hint, diagnostic.at?.line])).toEqual([
      ['unknown key "repeat" in scenarios[0].steps[0]', 'only a step inside parallel: takes repeat', 7],
    ])
  })
})

describe('mediaType: false and schema: false', () => {
  it('drop the checks a template makes, which a merge alone cannot remove', async () => {
    const head = `templates:
  read-user:
    request: { method: GET, url: /user, accept: User }
    expect: { status: 200, mediaType: User, schema: User }
${SCENARIO_HEAD}      - name: read it
        use: read-user
`
    const checksOf = async (text: string): Promise<unknown> => {
      const { scenarios, diagnostics } = await load('false.yaml', text)
      expect(diagnostics).toEqual([])
      const loaded = scenarios[0]!.steps[0]!.expect
      return {
        checks: loaded.checks.map((check) => `${check.path} ${check.matcher}`),
        schema: loaded.schema?.representation,
      }
    }
    expect(await checksOf(head)).toEqual({
      checks: ['status equals', 'headers.content-type mediaType'],
      schema: 'User',
    })
    expect(await checksOf(`${head}        expect: { mediaType: false, schema: false }\n`)).toEqual({
      checks: ['status equals'],
      schema: undefined,
    })
  })
})

describe('suites/templates.yaml', () => {
  it('holds only templates some suite file uses (an unused one would be a second way to say a step)', async () => {
    const suites = join(import.meta.dirname, '../../../suites')
    const library = readFileSync(join(suites, 'templates.yaml'), 'utf8')
    const defined = [...library.matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((match) => match[1])
    const texts = (await findScenarioFiles([suites])).files.map((file) => readFileSync(file, 'utf8'))
    const used = new Set(
      texts.flatMap((text) => [...text.matchAll(/^\s+use: ([a-z0-9-]+)$/gm)].map((match) => match[1])),
    )
    expect(defined.length).toBeGreaterThan(5)
    expect(defined.filter((name) => !used.has(name))).toEqual([])
  })
})
