import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { Diagnostic } from '../model/diagnostic.js'
import { packageRoot } from '../package-root.js'
import { didYouMean } from './did-you-mean.js'
import type { YamlSource } from './yaml-source.js'

let validate: ValidateFunction | undefined

/** schemas/scenario.schema.json is draft-07 (what yaml-language-server handles best): its own Ajv, compiled once. */
function validator(): ValidateFunction {
  if (!validate) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'scenario.schema.json'), 'utf8')) as object
    validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true }).compile(schema)
  }
  return validate
}

/** Validates a parsed scenario file; each problem points at its line and says what to do. */
export function validateScenarioFile(source: YamlSource): Diagnostic[] {
  const check = validator()
  if (check(source.data)) return []
  return mostSpecific(check.errors ?? []).map((error) => toDiagnostic(error, source))
}

/**
 * A `oneOf` (status: 200 | [..] | 2xx | {matchers}) fails with one error per branch; users need the
 * one about what they wrote, so keep only the deepest errors per location and drop the oneOf summary.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const concrete = errors.filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if')
  const kept: ErrorObject[] = []
  const seen = new Set<string>()
  for (const error of concrete) {
    const deeper = concrete.some((other) => other !== error && other.instancePath.startsWith(error.instancePath + '/'))
    if (deeper && error.keyword === 'type') continue
    const key = `${error.instancePath}|${error.keyword}|${JSON.stringify(error.params)}`
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(error)
  }
  return kept.length > 0 ? kept : [...errors]
}

function toDiagnostic(error: ErrorObject, source: YamlSource): Diagnostic {
  const path = error.instancePath.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? Number(part) : part.replace(/~1/g, '/').replace(/~0/g, '~')))
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
  const allowed = error.keyword === 'enum' ? `: one of ${(error.params['allowedValues'] as unknown[]).map(String).join(', ')}` : ''
  return { code: 'E_SCENARIO_SCHEMA', kind: 'load', message: `${label(path)} ${error.message ?? 'is invalid'}${allowed}`, at: source.locate(path) }
}

function where(path: readonly (string | number)[]): string {
  return path.length === 0 ? ' at the top of the file' : ` in ${label(path)}`
}

function label(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'the file' : path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '')
}
