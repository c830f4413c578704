/**
 * Child-process entry: one part of loading a scenario file, timed cold, each way a speed-up offers
 * beside its plain way. Prints one JSON line `{ ms, scenarios }`: the time from before the part's
 * modules are loaded to its answer, so a module's own start-up counts, as it does in a `fitconform run`.
 *
 *   node dist/bench/load-scenario-file-process.js --reader fitconform|yaml|js-yaml <file.yaml>
 *   node dist/bench/load-scenario-file-process.js --validator compiled|ajv <file.yaml>
 *
 * Readers: `fitconform` is the loader's own front (`parseYamlSource`: the quick reader, the composer
 * when a file leaves its subset); `yaml` is the composer alone, as the loader runs it (parseDocument +
 * toJS); `js-yaml` reads data only (no places), with the YAML 1.2 core schema, as `yaml` does.
 * Validators (the file is read first, untimed): `compiled` is the scenario schema's validator that
 * `npm run build` wrote, `ajv` the same schema compiled by Ajv at run time; each judges the file once.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { ValidateFunction } from 'ajv'

const { values, positionals } = parseArgs({
  options: { reader: { type: 'string' }, validator: { type: 'string' } },
  allowPositionals: true,
})
const file = positionals[0]
if (file === undefined) throw new Error('usage: load-scenario-file-process.js --reader|--validator <way> <file.yaml>')
const require = createRequire(import.meta.url)

if (values.validator === undefined) {
  const started = performance.now()
  const data = await read(values.reader, readFileSync(file, 'utf8'))
  printTiming(performance.now() - started, data)
} else {
  const data = require('yaml').parse(readFileSync(file, 'utf8')) as unknown
  const started = performance.now()
  const validate = await validator(values.validator)
  if (!validate(data)) throw new Error(`the file does not fit the scenario schema: ${JSON.stringify(validate.errors)}`)
  printTiming(performance.now() - started, data)
}

function printTiming(ms: number, data: unknown): void {
  const scenarios = (data as { scenarios?: unknown[] } | undefined)?.scenarios?.length ?? 0
  process.stdout.write(JSON.stringify({ ms, scenarios }) + '\n')
}

async function read(reader: string | undefined, source: string): Promise<unknown> {
  switch (reader) {
    case 'fitconform': {
      const { parseYamlSource } = await import('../src/load/yaml-source.js')
      return parseYamlSource(file!, source).source?.data
    }
    case 'yaml': {
      const yaml = require('yaml') as typeof import('yaml')
      return yaml.parseDocument(source, { uniqueKeys: true, prettyErrors: false }).toJS({ maxAliasCount: 100 })
    }
    case 'js-yaml': {
      const jsYaml = require('js-yaml') as typeof import('js-yaml')
      return jsYaml.load(source, { schema: jsYaml.CORE_SCHEMA })
    }
    default:
      throw new Error(`unknown reader ${String(reader)}`)
  }
}

async function validator(way: string): Promise<ValidateFunction> {
  const { SCENARIO_SCHEMA, loadCompiledValidator } = await import('../src/validation/compiled-validators.js')
  const { packageRoot } = await import('../src/shared/package-root.js')
  const schemaText = readFileSync(join(packageRoot(), 'schemas', SCENARIO_SCHEMA.file), 'utf8')
  switch (way) {
    case 'compiled': {
      const compiled = loadCompiledValidator(SCENARIO_SCHEMA, schemaText)
      if (!compiled) throw new Error('no validator compiled for the current schema: run `npm run build`')
      return compiled
    }
    case 'ajv': {
      const { Ajv } = require('ajv') as typeof import('ajv')
      return new Ajv(SCENARIO_SCHEMA.options).compile(JSON.parse(schemaText) as object)
    }
    default:
      throw new Error(`unknown validator ${way}`)
  }
}
