// The one Ajv instance (STYLE §2.8): JSON Schema 2020-12, strict, all errors, our formats and
// annotation keywords. Every file in schemas/api/ is added by `$id` and compiled once, on first
// use; nothing compiles a schema while checking a response.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join, resolve } from 'node:path'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import { packageRoot } from '../shared/package-root.js'
import { describeAjvError, describePath } from './describe-problem.js'
import { findIrregularities } from '../spec/feed-irregularities.js'
import { type RepresentationName, schemaIdOf } from '../spec/representations.js'
import type { SchemaProblem } from './schema-problem.js'
import { type ExpectedGap, expectedGaps, ruleAt, type SchemaNode, SchemaStore } from './schema-walk.js'
import { isAbsoluteHttpUrl, isRelativeUri, parseSpecTime } from './time-formats.js'

export type { SchemaProblem } from './schema-problem.js'

const SCHEMAS_BASE = 'https://fitconform.dev/schemas/'
const DIALECT = 'https://json-schema.org/draft/2020-12/schema'

interface Registry {
  ajv: Ajv2020
  store: SchemaStore
  schemasDir: string
  /** `$id` of each schema file loaded so far, by absolute path. */
  idsByFile: Map<string, string>
}

let registry: Registry | undefined

/** The `x-rule` ids evaluated by the validation in progress; validation is synchronous, so one set suffices. */
let checkedRules: Set<string> | undefined

function noteCheckedRule(rule: string): void {
  checkedRules?.add(rule)
}

function getRegistry(): Registry {
  registry ??= loadRegistry(join(packageRoot(), 'schemas'))
  return registry
}

function createAjv(): Ajv2020 {
  // Loaded on first use, not at start-up: a run whose scenarios check no schema does not pay for compiling them.
  const require = createRequire(import.meta.url)
  const { Ajv2020, _ } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default
  // validateSchema off: checking a schema against the 2020-12 meta-schema first compiles the
  // meta-schema, ~0.1 s of every run that checks a body. The files of schemas/api/ are checked against
  // it by their tests (schema-files.test.ts); a file of the user's is checked as it is added.
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true, validateSchema: false })
  addFormats(ajv)
  ajv.addFormat('spec-time', { type: 'string', validate: (text) => parseSpecTime(text) !== undefined })
  ajv.addFormat('relative-uri', { type: 'string', validate: isRelativeUri })
  ajv.addFormat('absolute-http-url', { type: 'string', validate: isAbsoluteHttpUrl })
  ajv.addVocabulary([
    // The rule id (suites/rules.yaml) a violation inside this subschema breaks; the nearest wins.
    // Evaluating the subschema also notes the id as checked: a rule judged by a schema keyword is
    // covered when its keyword ran. Inline code, one call with the id per evaluation: a
    // `validate` function would get a fresh data-context object per item of a page.
    {
      keyword: 'x-rule',
      schemaType: 'string',
      code(cxt) {
        const note = cxt.gen.scopeValue('func', { ref: noteCheckedRule })
        cxt.gen.code(_`${note}(${cxt.schemaCode})`)
      },
    },
    // Fields a complete representation carries; an absent one is a warning, not an error.
    { keyword: 'x-expected', schemaType: 'array' },
  ])
  return ajv
}

function loadRegistry(schemasDir: string): Registry {
  const loaded: Registry = { ajv: createAjv(), store: new SchemaStore(), schemasDir, idsByFile: new Map() }
  const apiDir = join(schemasDir, 'api')
  const files = readdirSync(apiDir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
  const ids = files.map((file) => addSchemaFile(loaded, join(apiDir, file), `${SCHEMAS_BASE}api/${file}`))
  // Compile only after all are added, so that cross-file $refs resolve.
  for (const id of ids) loaded.ajv.getSchema(id)
  return loaded
}

/** Adds a schema file: one of schemas/api/ with the `$id` it must have, or a file of the user's (no expectedId). */
function addSchemaFile(target: Registry, file: string, expectedId?: string): string {
  const schema = JSON.parse(readFileSync(file, 'utf8')) as SchemaNode
  if (schema.$schema !== undefined && schema.$schema !== DIALECT) {
    throw new Error(`${file}: only JSON Schema 2020-12 is supported here, found $schema ${String(schema.$schema)}`)
  }
  const id = typeof schema.$id === 'string' ? schema.$id : undefined
  if (id === undefined || (expectedId !== undefined && id !== expectedId)) {
    throw new Error(`${file}: $id must be ${expectedId ?? 'set'}, found ${String(id)}`)
  }
  if (expectedId === undefined) target.ajv.validateSchema(schema, true) // a file of the user's: throws "schema is invalid: …"
  target.ajv.addSchema(schema)
  target.store.add(schema)
  target.idsByFile.set(file, id)
  return id
}

/**
 * The `$id` of a schema given by `$id`, by path relative to schemas/ (`api/user.schema.json`) or by
 * absolute file path; a 2020-12 file outside schemas/api/ is loaded on first mention. Undefined
 * when there is no such schema.
 */
export function resolveSchemaId(ref: string): string | undefined {
  const current = getRegistry()
  const id = isAbsolute(ref) || !URL.canParse(ref, SCHEMAS_BASE) ? undefined : new URL(ref, SCHEMAS_BASE).href
  if (id !== undefined && current.store.has(id)) return id
  const file = id?.startsWith(SCHEMAS_BASE) ? resolve(current.schemasDir, id.slice(SCHEMAS_BASE.length)) : ref
  if (!isAbsolute(file)) return undefined
  const known = current.idsByFile.get(file)
  if (known !== undefined || !existsSync(file)) return known
  const loadedId = addSchemaFile(current, file)
  current.ajv.getSchema(loadedId) // compile now, as at start-up
  return loadedId
}

/**
 * Validates data against one schema: errors from the schema and warnings for absent `x-expected`
 * fields. Throws when the schema is unknown.
 */
export function validateAgainstSchemaFile(idOrPath: string, data: unknown): SchemaProblem[] {
  const { errors, gaps } = check(idOrPath, data)
  return [...errors, ...gaps.map(gapProblem)]
}

/**
 * All problems of a representation's body, with the irregularities the spec documents for it (src/spec/).
 * @example validateRepresentation('User', { userID: '7', profile: '/profile' })
 */
export function validateRepresentation(name: RepresentationName, body: unknown): SchemaProblem[] {
  return checkRepresentation(name, body).problems
}

/** What checking a body found, and the rule ids it judged: every `x-rule` evaluated, and the irregularities looked for. */
export interface RepresentationCheck {
  readonly problems: SchemaProblem[]
  readonly checkedRules: readonly string[]
}

/** validateRepresentation, and which rules the check judged (a rule with no problem among them passed). */
export function checkRepresentation(name: RepresentationName, body: unknown): RepresentationCheck {
  const { errors, gaps, rules } = check(schemaIdOf(name), body)
  const { irregularities, excuses, checkedRules: irregular } = findIrregularities(name, body)
  return {
    problems: [...errors, ...gaps.filter((gap) => !excuses(gap)).map(gapProblem), ...irregularities],
    checkedRules: [...rules, ...irregular],
  }
}

function check(idOrPath: string, data: unknown): { errors: SchemaProblem[]; gaps: ExpectedGap[]; rules: string[] } {
  const id = resolveSchemaId(idOrPath)
  const { ajv, store } = getRegistry()
  const validate = id === undefined ? undefined : ajv.getSchema(id)
  if (id === undefined || !validate) throw new Error(`no schema ${idOrPath} in ${SCHEMAS_BASE}`)
  const rules = new Set<string>()
  checkedRules = rules
  try {
    validate(data)
  } finally {
    checkedRules = undefined
  }
  const rootRule = String(store.get(id)?.node['x-rule'] ?? '')
  const errors = (validate.errors ?? [])
    .filter((error) => error.keyword !== 'if') // the errors of its then/else branch say why
    .map((error): SchemaProblem => ({
      severity: 'error',
      // parentSchema is a boolean for the errors of a `false` subschema
      rule:
        (typeof error.parentSchema === 'object'
          ? ruleAt(store, id, error.instancePath, error.parentSchema)
          : undefined) ?? rootRule,
      pointer: error.instancePath,
      message: describeAjvError(error),
    }))
  return { errors, gaps: expectedGaps(store, id, data), rules: [...rules] }
}

function gapProblem(gap: ExpectedGap): SchemaProblem {
  const message = `${describePath(gap.pointer)} lacks the expected field "${gap.field}"`
  return { severity: 'warning', rule: gap.rule, pointer: gap.pointer, message }
}

/** Keywords of an object schema that judge each member on its own, and of an array schema that judge each item on its own. */
const MEMBERWISE_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$defs',
  '$comment',
  'title',
  'description',
  'type',
  'required',
  'properties',
  'additionalProperties',
  'x-rule',
  'x-expected',
])
const ITEMWISE_KEYWORDS = new Set(['$comment', 'title', 'description', 'type', 'items', 'x-rule', 'x-expected'])

/**
 * The member of a representation's body holding an array of at least `minItems` items that can be
 * judged a slice at a time (sliced-validation.ts): one whose schema, and its object's, judge every
 * item on its own (no `$ref`, `allOf`, `minItems`, `contains`, … at either level). The longest wins.
 */
export function sliceableMember(name: RepresentationName, body: unknown, minItems: number): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const root = getRegistry().store.get(schemaIdOf(name))?.node
  const properties = root?.properties
  if (
    !root ||
    !Object.keys(root).every((keyword) => MEMBERWISE_KEYWORDS.has(keyword)) ||
    typeof properties !== 'object' ||
    properties === null
  )
    return undefined
  let longest: string | undefined
  for (const [key, value] of Object.entries(body)) {
    if (
      !Array.isArray(value) ||
      value.length < minItems ||
      (longest !== undefined && value.length <= (body as Record<string, unknown[]>)[longest]!.length)
    )
      continue
    const member = Object.hasOwn(properties, key) ? (properties as Record<string, unknown>)[key] : undefined
    if (
      typeof member === 'object' &&
      member !== null &&
      Object.keys(member).every((keyword) => ITEMWISE_KEYWORDS.has(keyword))
    )
      longest = key
  }
  return longest
}
