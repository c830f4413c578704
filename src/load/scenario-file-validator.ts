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
  return mostSpecific(check.errors ?? []).map((error) => toDiagnostic(error, source))
}

/**
 * A `oneOf` (status: 200 | [..] | 2xx | {matchers}) fails with one error per branch: "must be
 * integer", "must be array", "must be one of 2xx…", and the useful one about the object the user
 * wrote. At a location where some branch says something specific, the other branches' "wrong type"
 * errors are noise: keep the specific ones.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const concrete = errors.filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if')
  const isBranchMismatch = (error: ErrorObject): boolean => ['type', 'enum', 'const'].includes(error.keyword) && error.schemaPath.includes('/oneOf/')
  const specificAt = new Set(concrete.filter((error) => !isBranchMismatch(error)).map((error) => error.instancePath))
  const descendantsOf = (path: string): boolean => concrete.some((other) => !isBranchMismatch(other) && other.instancePath.startsWith(path + '/'))
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
  if (error.keyword === 'required') {
    return { code: 'E_SCENARIO_SCHEMA', kind: 'load', message: `missing key "${String(error.params['missingProperty'])}"${where(path)}`, at: source.locate(path) }
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
  return { code: 'E_SCENARIO_SCHEMA', kind: 'load', message: `${label(path)} ${error.message ?? 'is invalid'}`, at: source.locate(path) }
}

function where(path: readonly (string | number)[]): string {
  return path.length === 0 ? ' at the top of the file' : ` in ${label(path)}`
}

function label(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'the file' : path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '')
}
