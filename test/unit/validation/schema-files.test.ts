import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { REPRESENTATION_NAMES, schemaIdOf } from '../../../src/spec/representations.js'
import { resolveSchemaId, validateAgainstSchemaFile } from '../../../src/validation/schema-registry.js'

const apiDir = join(import.meta.dirname, '../../../schemas/api')
const files = readdirSync(apiDir)
  .filter((file) => file.endsWith('.schema.json'))
  .sort()
const schemas = files.map((file) => ({
  file,
  schema: JSON.parse(readFileSync(join(apiDir, file), 'utf8')) as Record<string, unknown>,
}))
const catalogue = parse(readFileSync(join(import.meta.dirname, '../../../suites/rules.yaml'), 'utf8')) as {
  rules: { id: string; retired?: boolean }[]
}
const liveRuleIds = new Set(catalogue.rules.filter((rule) => rule.retired !== true).map((rule) => rule.id))

/** Every object inside a schema, with the local `$ref` target of each resolved for the x-expected check. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null) return []
  const children = Object.values(value).flatMap(objectsIn)
  return Array.isArray(value) ? children : [value as Record<string, unknown>, ...children]
}

function localTarget(schema: Record<string, unknown>, node: Record<string, unknown>): Record<string, unknown> {
  if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node
  return node.$ref
    .slice(2)
    .split('/')
    .reduce<Record<string, unknown>>((at, key) => at[key] as Record<string, unknown>, schema)
}

describe('schemas/api', () => {
  it.each(schemas)('$file has the 2020-12 dialect, an id from its file name and a title', ({ file, schema }) => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.$id).toBe(`https://fitconform.dev/schemas/api/${file}`)
    expect(schema.title).toEqual(expect.any(String))
    expect(schema.additionalProperties).toBeUndefined()
  })

  // The registry does not check its own files against the meta-schema at run time (it costs ~0.1 s
  // of every run): this is where a broken keyword in one of them is caught.
  it.each(schemas)('$file is a valid JSON Schema 2020-12 document (its meta-schema)', ({ schema }) => {
    const ajv = new Ajv2020({ strict: false })
    expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true)
  })

  it.each(schemas)('$file names only rules of suites/rules.yaml in x-rule', ({ schema }) => {
    const rules = objectsIn(schema).flatMap((node) => (typeof node['x-rule'] === 'string' ? [node['x-rule']] : []))
    expect(rules.length).toBeGreaterThan(0)
    expect(rules.filter((rule) => !liveRuleIds.has(rule))).toEqual([])
  })

  it.each(schemas)('$file lists in x-expected only declared properties', ({ schema }) => {
    for (const node of objectsIn(schema).filter((n) => Array.isArray(n['x-expected']))) {
      const properties = (localTarget(schema, node).properties ?? {}) as Record<string, unknown>
      expect((node['x-expected'] as string[]).filter((field) => !(field in properties))).toEqual([])
    }
  })

  it.each(REPRESENTATION_NAMES)('has the schema of %s loaded', (name) => {
    expect(resolveSchemaId(schemaIdOf(name))).toBe(schemaIdOf(name))
  })
})

describe('resolveSchemaId and validateAgainstSchemaFile', () => {
  const tempDir = mkdtempSync(join(tmpdir(), 'fitconform-schema-'))
  afterAll(() => rmSync(tempDir, { recursive: true, force: true }))

  it('finds a schema by its path relative to schemas/', () => {
    expect(resolveSchemaId('api/user.schema.json')).toBe('https://fitconform.dev/schemas/api/user.schema.json')
  })

  it('says undefined for an unknown schema and throws when asked to validate with it', () => {
    expect(resolveSchemaId('api/nothing.schema.json')).toBeUndefined()
    expect(() => validateAgainstSchemaFile('api/nothing.schema.json', {})).toThrow(/no schema/)
  })

  it('refuses a schema file of the user that breaks the 2020-12 meta-schema, saying why', () => {
    const file = join(tempDir, 'typo.schema.json')
    writeFileSync(
      file,
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://fitconform.dev/test/typo.schema.json',
        type: 'objekt',
      }),
    )
    expect(() => validateAgainstSchemaFile(file, {})).toThrow(
      /schema is invalid: data\/type must be equal to one of the allowed values/,
    )
  })

  it('loads a 2020-12 schema file outside schemas/api by absolute path, once', () => {
    const file = join(tempDir, 'har.schema.json')
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://fitconform.dev/test/har.schema.json',
      type: 'object',
      properties: { log: { type: 'object' }, banned: false },
      required: ['log'],
    }
    writeFileSync(file, JSON.stringify(schema))
    expect(validateAgainstSchemaFile(file, { log: {} })).toEqual([])
    expect(validateAgainstSchemaFile(file, { log: [] })).toHaveLength(1)
    expect(validateAgainstSchemaFile(schema.$id, {})).toEqual([
      { severity: 'error', rule: '', pointer: '', message: 'the body must have the field "log"' },
    ])
    expect(validateAgainstSchemaFile(file, { log: {}, banned: 1 })).toEqual([
      { severity: 'error', rule: '', pointer: '/banned', message: '/banned boolean schema is false' },
    ])
  })

  it('refuses a schema file of another dialect', () => {
    const file = join(tempDir, 'draft7.schema.json')
    writeFileSync(
      file,
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'https://fitconform.dev/test/d7.json',
      }),
    )
    expect(() => validateAgainstSchemaFile(file, {})).toThrow(/2020-12/)
  })
})
