// Finds and reads the config file: YAML (`fitconform.config.yaml`) or a typed module
// (`fitconform.config.ts`, written with `defineConfig`). Node 20 cannot import TypeScript itself, so
// modules are loaded with jiti, which strips the types; the data is validated by run-options.ts the
// same way whatever the file's language.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, extname, resolve } from 'node:path'
import { ConformanceError, type SourceRef } from '../../model/diagnostic.js'
import type { YamlPath } from '../../load/yaml-source.js'
import { parseYamlSource } from '../../load/yaml-source.js'

/**
 * Looked for in the working directory in this order when --config is not given: exactly the names
 * the README gives. A `fitconform.config.js` lying there is not run: loading a module runs its code.
 */
export const CONFIG_FILE_NAMES = ['fitconform.config.ts', 'fitconform.config.yaml'] as const

const MODULE_EXTENSIONS = new Set(['.ts'])
const YAML_EXTENSIONS = new Set(['.yaml', '.yml'])

export interface ConfigSource {
  readonly file: string
  readonly data: Record<string, unknown>
  /** Where a key or value is, for error messages: line and column in YAML, the file alone in a module. */
  readonly locate: (path: YamlPath, part?: 'key' | 'value') => SourceRef
}

/** The config file `--config` names, or the first of CONFIG_FILE_NAMES in `cwd`; undefined when there is none. */
export function readConfigFile(file: string | undefined, cwd: string = process.cwd()): ConfigSource | undefined {
  const path = file
    ? resolve(cwd, file)
    : CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).find((candidate) => existsSync(candidate))
  if (!path) return undefined
  if (!existsSync(path))
    throw new ConformanceError({ code: 'E_USAGE', kind: 'load', message: `the config file ${file} does not exist` })
  if (MODULE_EXTENSIONS.has(extname(path))) return readModuleConfig(path)
  if (YAML_EXTENSIONS.has(extname(path))) return readYamlConfig(path)
  throw new ConformanceError({
    code: 'E_USAGE',
    kind: 'load',
    message: `the config file ${file} is neither TypeScript (.ts) nor YAML (.yaml): name it fitconform.config.ts or fitconform.config.yaml`,
  })
}

function readYamlConfig(path: string): ConfigSource {
  const { source, diagnostics } = parseYamlSource(path, readFileSync(path, 'utf8'))
  if (!source) throw new ConformanceError({ ...diagnostics[0]!, code: 'E_CONFIG' })
  const data = source.data ?? {}
  if (typeof data !== 'object' || Array.isArray(data))
    throw configError(path, 'the config file must be a mapping of keys (baseUrl, tokens, ...)')
  return { file: source.file, data: data as Record<string, unknown>, locate: source.locate }
}

function readModuleConfig(path: string): ConfigSource {
  let exported: unknown
  try {
    // Synchronous on purpose: options are resolved before anything runs. Node 20.19 can require() the
    // ES modules a config imports (`fitconform` itself); jiti transforms only what Node cannot load.
    // No cache on disk: a config is one small file, and we write nothing into the user's node_modules.
    // Loaded here, not at start-up: most runs have no config module, and jiti is slow to load.
    const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti')
    const jiti = createJiti(path, { fsCache: false, moduleCache: false, tryNative: true, interopDefault: false })
    const module = jiti(path) as { default?: unknown }
    exported = module?.default
  } catch (error) {
    throw configError(path, `cannot load ${basename(path)}: ${(error as Error).message}`)
  }
  if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) {
    throw configError(
      path,
      `${basename(path)} must export its settings as the default export: export default defineConfig({ ... })`,
    )
  }
  const at: SourceRef = { file: path, line: 1, column: 1 }
  return { file: path, data: { ...(exported as Record<string, unknown>) }, locate: () => at }
}

function configError(file: string, message: string): ConformanceError {
  return new ConformanceError({ code: 'E_CONFIG', kind: 'load', message, at: { file, line: 1, column: 1 } })
}
