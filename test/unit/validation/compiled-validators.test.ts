import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { parseDocument } from 'yaml'
import { describe, expect, it } from 'vitest'
import { loadCompiledValidator, SCENARIO_SCHEMA } from '../../../src/validation/compiled-validators.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const schemaText = readFileSync(join(ROOT, 'schemas', SCENARIO_SCHEMA.file), 'utf8')

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return yamlFiles(path)
    return entry.name.endsWith('.yaml') && entry.name !== 'rules.yaml' ? [path] : []
  })
}

/** Scenario documents, valid and not: the built-in suites, the loader's fixtures, and a few hand-made mistakes. */
const documents: [string, unknown][] = [
  ...[...yamlFiles(join(ROOT, 'suites')), ...yamlFiles(join(ROOT, 'test', 'fixtures', 'load'))]
    .map((file): [string, ReturnType<typeof parseDocument>] => [
      file.slice(ROOT.length + 1),
      parseDocument(readFileSync(file, 'utf8')),
    ])
    .filter(([, document]) => document.errors.length === 0)
    .map(([name, document]): [string, unknown] => [name, document.toJS()]),
  ['an empty scenario list', { scenarios: [] }],
  [
    'a status of the wrong type',
    {
      scenarios: [
        {
          id: 'x',
          title: 't',
          rules: ['USER-READ'],
          steps: [{ name: 'n', request: { method: 'GET', url: '/user' }, expect: { status: 'ok' } }],
        },
      ],
    },
  ],
  [
    'an unknown method',
    {
      scenarios: [
        {
          id: 'x',
          title: 't',
          rules: ['USER-READ'],
          steps: [{ name: 'n', request: { method: 'FETCH', url: '/user' } }],
        },
      ],
    },
  ],
  ['both scenarios and a permission matrix', { scenarios: [], permissionMatrix: {} }],
  ['not a map', ['scenarios']],
]

describe('the scenario schema validator compiled at build time', () => {
  const compiled = loadCompiledValidator(SCENARIO_SCHEMA, schemaText)
  const ajv = new Ajv(SCENARIO_SCHEMA.options).compile(JSON.parse(schemaText) as object)

  it('is there for the current schema (npm run build writes it)', () => {
    expect(compiled).toBeTypeOf('function')
  })

  it('is not used for a schema that changed since the build', () => {
    expect(loadCompiledValidator(SCENARIO_SCHEMA, schemaText.replace('"minItems": 1', '"minItems": 2'))).toBeUndefined()
  })

  it.each(documents)('judges %s exactly as Ajv compiling the schema at run time', (_, data) => {
    const ours = compiled!(data)
    expect(ours).toBe(ajv(data))
    expect(compiled!.errors ?? null).toEqual(ajv.errors ?? null)
  })

  it('finds the mistakes in the hand-made documents', () => {
    expect(documents.slice(-5).every(([, data]) => !compiled!(data))).toBe(true)
  })
})
