#!/usr/bin/env node
// The published entry point. `npm run build` (run by `npm ci`'s prepare) bundles the CLI into one
// CommonJS file and records V8's code cache for it (scripts/bundle-cli.mjs says why). This file
// compiles the bundle with that cache, so the functions a run needs start as bytecode instead of
// being parsed and compiled again. V8 ignores a cache that does not fit (another Node, other flags):
// the bundle then compiles as any script does.
import { readFileSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

const bundle = fileURLToPath(new URL('../dist/cli/fitconform.cjs', import.meta.url))
const codeCache = `${bundle}.cache`

let source
try {
  source = readFileSync(bundle, 'latin1') // the build checks the bundle is ASCII
} catch (error) {
  if (error?.code !== 'ENOENT') throw error
  console.error('fitconform is not built yet: run `npm ci` (or `npm run build`) in the fitconform folder first.')
  process.exit(2)
}

const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData: readIfPresent(codeCache) })
// Set by the build only (and not passed on to processes the run starts): after the run, the cache
// holds every function the run compiled.
if (process.env.FITCONFORM_RECORD_CODE_CACHE === '1') {
  delete process.env.FITCONFORM_RECORD_CODE_CACHE
  process.once('exit', () => writeFileSync(codeCache, script.createCachedData()))
}

const module = new Module(bundle)
module.filename = bundle
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle))

function readIfPresent(file) {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}
