import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import fc from 'fast-check'
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

  it('judges generated variations of the suites exactly as Ajv compiling the schema at run time', () => {
    // A document of the suites with one value replaced by any JSON value, or one key removed: mostly
    // invalid, in every place, so that every branch of the schema has its errors compared.
    const variation = fc
      .tuple(fc.constantFrom(...documents.map(([, data]) => data)), fc.nat(), fc.option(fc.jsonValue()))
      .map(([data, seed, replacement]) => vary(data, seed, replacement))
    let invalid = 0
    fc.assert(
      fc.property(variation, (data) => {
        const ours = compiled!(data)
        expect(ours).toBe(ajv(data))
        expect(compiled!.errors ?? null).toEqual(ajv.errors ?? null)
        if (!ours) invalid++
      }),
      { numRuns: 1000 },
    )
    expect(invalid, 'most variations break the schema somewhere').toBeGreaterThan(300)
  })

  it('finds the mistakes in the hand-made documents', () => {
    expect(documents.slice(-5).every(([, data]) => !compiled!(data))).toBe(true)
  })
})

/**
 * A copy of `data` with the value at one place (chosen by `seed` among every place) replaced by
 * `replacement`, or, when that is null and the place is a key of a map, with the key removed.
 */
function vary(data: unknown, seed: number, replacement: unknown): unknown {
  const copy = structuredClone(data)
  const places: [Record<string | number, unknown>, string | number][] = []
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    for (const key of Object.keys(value)) {
      const container = value as Record<string | number, unknown>
      places.push([container, Array.isArray(value) ? Number(key) : key])
      walk(container[key])
    }
  }
  walk(copy)
  if (places.length === 0) return replacement
  const [container, key] = places[seed % places.length]!
  if (replacement === null && !Array.isArray(container)) delete container[key]
  else container[key] = replacement
  return copy
}
