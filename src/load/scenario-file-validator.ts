import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { Diagnostic } from '../model/diagnostic.js'
import { packageRoot } from '../shared/package-root.js'
import { loadCompiledValidator, SCENARIO_SCHEMA } from '../validation/compiled-validators.js'
import { didYouMean } from './did-you-mean.js'
import type { YamlSource } from './yaml-source.js'
import { pointerSegments } from '../shared/json-pointer.js'

let validate: ValidateFunction | undefined

/**
 * The scenario schema's validator, made once: the one `npm run build` compiled, or, when there is
 * none for this schema text, compiled here by Ajv (loaded only then) with the same options.
 */
function validator(): ValidateFunction {
  if (!validate) {
    const text = readFileSync(join(packageRoot(), 'schemas', SCENARIO_SCHEMA.file), 'utf8')
    validate = loadCompiledValidator(SCENARIO_SCHEMA, text) ?? compileWithAjv(JSON.parse(text) as object)
  }
  return validate
}

function compileWithAjv(schema: object): ValidateFunction {
  const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv')
  return new Ajv(SCENARIO_SCHEMA.options).compile(schema)
}

/** Validates a parsed scenario file; each problem points at its line and says what to do. */
export function validateScenarioFile(source: YamlSource): Diagnostic[] {
  const check = validator()
  if (check(source.data)) return []
  const errors = withoutInsideForbiddenKeys(check.errors ?? [])
  const oneOfAt = new Set(errors.filter((error) => error.keyword === 'oneOf').map((error) => error.instancePath))
  // A branch of a oneOf that does not fit at all; a $ref'd branch's schemaPath does not show the oneOf, its place does.
  const isBranchMismatch = (error: ErrorObject): boolean =>
    ['type', 'enum', 'const'].includes(error.keyword) &&
    (error.schemaPath.includes('/oneOf/') || oneOfAt.has(error.instancePath))
  const kept = mostSpecific(errors, isBranchMismatch)
  const diagnostics: Diagnostic[] = []
  const alternativesDone = new Set<string>()
  for (const error of kept) {
    const alternatives = kept.filter((other) => other.instancePath === error.instancePath && isBranchMismatch(other))
    if (isBranchMismatch(error) && alternatives.length > 1) {
      if (alternativesDone.has(error.instancePath)) continue
      alternativesDone.add(error.instancePath)
      diagnostics.push(alternativesDiagnostic(error, alternatives, source))
    } else {
      diagnostics.push(toDiagnostic(error, source))
    }
  }
  return diagnostics
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map of matchers',
}

/**
 * A value that fits none of a `oneOf`'s shapes gets one sentence listing them all, rather than the
 * first branch's "must be object" (`status: created` is meant as 201, [200, 201] or 2xx).
 */
function alternativesDiagnostic(
  first: ErrorObject,
  alternatives: readonly ErrorObject[],
  source: YamlSource,
): Diagnostic {
  const path = pointerSegments(first.instancePath).map((part) => (/^\d+$/.test(part) ? Number(part) : part))
  const shapes = alternatives.map((error) =>
    error.keyword === 'enum'
      ? `one of ${(error.params['allowedValues'] as unknown[]).map(String).join(', ')}`
      : error.keyword === 'type'
        ? (TYPE_WORDS[String(error.params['type'])] ?? String(error.params['type']))
        : String(error.message),
  )
  const isStatus = path.at(-1) === 'status'
  return {
    code: 'E_SCENARIO_SCHEMA',
    kind: 'load',
    message: `${label(path)} is ${JSON.stringify(first.data)}, which is none of: ${shapes.join('; ')}`,
    at: source.locate(path),
    ...(isStatus
      ? {
          hint: 'a status is a code such as 201, a list of codes such as [200, 201], a class such as 2xx, or matchers such as { gte: 400 }',
        }
      : {}),
  }
}

/**
 * A `oneOf` (status: 200 | [..] | 2xx | {matchers}) fails with one error per branch: "must be
 * integer", "must be array", "must be one of 2xx…", and the useful one about the object the user
 * wrote. At a location where some branch says something specific, the other branches' "wrong type"
 * errors are noise: keep the specific ones.
 */
function mostSpecific(
  errors: readonly ErrorObject[],
  isBranchMismatch: (error: ErrorObject) => boolean,
): ErrorObject[] {
  const concrete = errors.filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if')
  const specificAt = new Set(concrete.filter((error) => !isBranchMismatch(error)).map((error) => error.instancePath))
  const descendantsOf = (path: string): boolean =>
    concrete.some((other) => !isBranchMismatch(other) && other.instancePath.startsWith(path + '/'))
  const kept: ErrorObject[] = []
  const seen = new Set<string>()
  for (const error of concrete) {
    if (isBranchMismatch(error) && (specificAt.has(error.instancePath) || descendantsOf(error.instancePath))) continue
    const key = `${error.instancePath}|${error.keyword}|${JSON.stringify(error.params)}`
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(error)
  }
  return kept.length > 0 ? kept : [...errors]
}

function toDiagnostic(error: ErrorObject, source: YamlSource): Diagnostic {
  const path = pointerSegments(error.instancePath).map((part) => (/^\d+$/.test(part) ? Number(part) : part))
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params['additionalProperty'])
    const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {})
    const suggestion = didYouMean(key, known)
    return {
      code: 'E_SCENARIO_SCHEMA',
      kind: 'load',
      message: `unknown key "${key}"${where(path)}`,
      at: source.locate([...path, key], 'key'),
      hint: suggestion ? `did you mean "${suggestion}"?` : `known keys: ${known.join(', ')}`,
    }
  }
  if (isForbiddenKey(error)) {
    // A key the shared definition has but this form forbids (`repeat: { not: {} }` in a step): to the
    // user it is an unknown key here, and the forbidding schema's description says where it belongs.
    const description = (error.parentSchema as { description?: string } | undefined)?.description
    return {
      code: 'E_SCENARIO_SCHEMA',
      kind: 'load',
      message: `unknown key "${String(path.at(-1))}"${where(path.slice(0, -1))}`,
      at: source.locate(path, 'key'),
      ...(description ? { hint: description } : {}),
    }
  }
  if (error.keyword === 'required') {
    return {
      code: 'E_SCENARIO_SCHEMA',
      kind: 'load',
      message: `missing key "${String(error.params['missingProperty'])}"${where(path)}`,
      at: source.locate(path),
    }
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params['allowedValues'] as unknown[]).map(String)
    const suggestion = didYouMean(String(error.data), allowed)
    return {
      code: 'E_SCENARIO_SCHEMA',
      kind: 'load',
      message: `${label(path)} is ${JSON.stringify(error.data)}, not one of ${allowed.join(', ')}`,
      at: source.locate(path),
      ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
    }
  }
  return {
    code: 'E_SCENARIO_SCHEMA',
    kind: 'load',
    message: `${label(path)} ${error.message ?? 'is invalid'}`,
    at: source.locate(path),
  }
}

/** A key the form forbids (`not: {}`, where nothing is allowed) rather than a value that does not fit. */
function isForbiddenKey(error: ErrorObject): boolean {
  const schema: unknown = error.schema
  return (
    error.keyword === 'not' &&
    typeof schema === 'object' &&
    schema !== null &&
    Object.keys(schema).length === 0 &&
    error.instancePath !== ''
  )
}

/** A forbidden key's value is not judged further: the shared definition's verdict on it is noise. */
function withoutInsideForbiddenKeys(errors: readonly ErrorObject[]): ErrorObject[] {
  const forbidden = errors.filter(isForbiddenKey).map((error) => error.instancePath)
  return errors.filter(
    (error) =>
      isForbiddenKey(error) ||
      !forbidden.some((path) => error.instancePath === path || error.instancePath.startsWith(path + '/')),
  )
}

function where(path: readonly (string | number)[]): string {
  return path.length === 0 ? ' at the top of the file' : ` in ${label(path)}`
}

function label(path: readonly (string | number)[]): string {
  return path.length === 0
    ? 'the file'
    : path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
        .join('')
        .replace(/^\./, '')
}
