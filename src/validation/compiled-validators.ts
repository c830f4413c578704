// Validators compiled at build time. Loading Ajv and compiling schemas/scenario.schema.json is a
// large part of a short run (docs/benchmarks.md, the speed-ups rows); `npm run build` writes Ajv's
// standalone code for it to dist/validators/ (write-compiled-validators.ts), and a run loads that
// instead, without loading Ajv. The loader's one seam is loadCompiledValidator: undefined sends it to
// Ajv. test/unit/validation/compiled-validators.test.ts holds both to the same verdicts and errors.
// The code carries a digest of the schema text it was made from: when the schema has changed since
// the build (a run from src/ under vitest, an edited checkout), the digest differs and the caller
// compiles the schema with Ajv as before, so a stale build can never validate against an old schema.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Options, ValidateFunction } from 'ajv'
import { packageRoot } from '../shared/package-root.js'

/** A schema of schemas/ that has a validator compiled at build time, and the Ajv options it is compiled with. */
export interface CompiledSchema {
  /** File name in schemas/. */
  readonly file: string
  readonly options: Options
}

/** schemas/scenario.schema.json is draft-07 (what yaml-language-server handles best), with its own Ajv options. */
export const SCENARIO_SCHEMA: CompiledSchema = {
  file: 'scenario.schema.json',
  options: { allErrors: true, strict: true, allowUnionTypes: true, verbose: true },
}

export const COMPILED_SCHEMAS: readonly CompiledSchema[] = [SCENARIO_SCHEMA]

/** Where the build writes the standalone code of a schema: CommonJS, as Ajv generates it. */
export function compiledValidatorFile(schema: CompiledSchema): string {
  return join(packageRoot(), 'dist', 'validators', schema.file.replace(/\.json$/, '.cjs'))
}

export function schemaDigest(schemaText: string): string {
  return createHash('sha256').update(schemaText).digest('hex')
}

/** The build-time validator of a schema, when one was compiled from exactly this schema text. */
export function loadCompiledValidator(schema: CompiledSchema, schemaText: string): ValidateFunction | undefined {
  const file = compiledValidatorFile(schema)
  if (!existsSync(file)) return undefined
  const compiled = createRequire(import.meta.url)(file) as { default: ValidateFunction; schemaDigest?: string }
  return compiled.schemaDigest === schemaDigest(schemaText) ? compiled.default : undefined
}
