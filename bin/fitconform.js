#!/usr/bin/env node
// The published entry point. `npm run build` (run by `npm ci`'s prepare) bundles the CLI into one
// CommonJS file and records V8's code cache for it (scripts/bundle-cli.mjs says why). This file
// compiles the bundle with that cache, so the functions a run needs start as bytecode instead of
// being parsed and compiled again. V8 ignores a cache that does not fit (another Node, other flags):
// the bundle then compiles as any script does.
//
// CommonJS (bin/package.json), as the bundle is: as an ES module, this one file made Node start its
// ES module loader at every command.
//
// This file is the bundle's one seam: everything else (the library, the tests, the benchmarks)
// runs dist/src as tsc wrote it, where the same CLI is dist/src/cli/main.js.
// test/e2e/packaging/cli-bundle.test.ts holds the two to the same output; docs/benchmarks.md has the gain.
'use strict'
const { readFileSync, writeFileSync } = require('node:fs')
const Module = require('node:module')
const { dirname, join } = require('node:path')
const vm = require('node:vm')

const bundle = join(__dirname, '..', 'dist', 'cli', 'fitconform.cjs')
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

const cli = new Module(bundle, module)
cli.filename = bundle
script.runInThisContext()(cli.exports, Module.createRequire(bundle), cli, bundle, dirname(bundle))

function readIfPresent(file) {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}
