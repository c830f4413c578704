// The JSON Schemas of schemas/api/ as OpenAPI components. OpenAPI 3.1 schema objects are JSON Schema
// 2020-12, so each schema is taken as it is; only what ties it to its own file changes: `$id` and
// `$schema` go (the document declares the dialect once), and every `$ref`, within a file or to another
// one, is rewritten to the component that holds its target.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPRESENTATION_NAMES, schemaIdOf, type RepresentationName } from '../spec/representations.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Component name → schema, one per representation, in REPRESENTATION_NAMES order. */
export function apiSchemaComponents(schemasDir: string): Record<RepresentationName, Json> {
  const apiDir = join(schemasDir, 'api')
  const nameOfFile = new Map<string, RepresentationName>()
  for (const name of REPRESENTATION_NAMES) nameOfFile.set(schemaIdOf(name).split('/').pop()!, name)
  const components = {} as Record<RepresentationName, Json>
  for (const file of readdirSync(apiDir)
    .filter((each) => each.endsWith('.schema.json'))
    .sort()) {
    const name = nameOfFile.get(file)
    if (!name) throw new Error(`schemas/api/${file} describes no representation of src/spec/representations.ts`)
    const {
      $id: _id,
      $schema: _dialect,
      ...schema
    } = JSON.parse(readFileSync(join(apiDir, file), 'utf8')) as Record<string, Json>
    components[name] = rewriteRefs(schema, (ref) => componentRef(ref, name, nameOfFile))
  }
  for (const name of REPRESENTATION_NAMES)
    if (!components[name]) throw new Error(`schemas/api/ has no schema for ${name}`)
  return Object.fromEntries(REPRESENTATION_NAMES.map((name) => [name, components[name]])) as Record<
    RepresentationName,
    Json
  >
}

/** `other.schema.json#/properties/uri` → `#/components/schemas/Other/properties/uri`; `#/$defs/x` stays in its own component. */
function componentRef(
  ref: string,
  owner: RepresentationName,
  nameOfFile: ReadonlyMap<string, RepresentationName>,
): string {
  const [file, pointer = ''] = ref.split('#')
  const target = file ? nameOfFile.get(file) : owner
  if (!target) throw new Error(`cannot place the $ref ${JSON.stringify(ref)} of the ${owner} schema`)
  return `#/components/schemas/${target}${pointer}`
}

function rewriteRefs(value: Json, rewrite: (ref: string) => string): Json {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rewrite))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rewrite(item) : rewriteRefs(item, rewrite),
    ]),
  )
}
