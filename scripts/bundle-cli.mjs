// Build step after tsc: the CLI that bin/fitconform.js starts, bundled from dist/ into dist/cli/, and
// the V8 code cache bin/fitconform.js compiles it with.
//
// Why (docs/benchmarks.md, the 500-test workload): start-up is a large part of a short run. Node 20's ES module
// loader spends about a millisecond on each module (resolve, stat, read, compile, link), and every
// function a run calls is parsed and compiled again in every process. So:
// - our modules are one CommonJS file, dist/cli/fitconform.cjs: one read, one compile. A command's
//   modules still run only when that command does (rolldown keeps each dynamically imported module
//   behind an init function).
// - it is CommonJS because only a classic script can be given a code cache on Node 20: vm.Script's
//   `cachedData` (Node 22's module.enableCompileCache does it for modules; Node 20 lacks it).
// - the cache is recorded by running the main job once, `fitconform run` against the embedded
//   reference server, so it holds every function such a run compiled.
// - the file is ASCII without comments, so bin/fitconform.js reads it as latin1: a third of the bytes
//   of the commented bundle, and no UTF-8 decoding.
// - packages stay in node_modules (lazyRequires below), except commander, which every command needs.
// The code cache saves compiling, the small ASCII file saves reading (docs/benchmarks.md, the 500-test
// workload).
// The library API (`import … from 'fitconform'`) and the benchmarks keep using dist/src/ as tsc wrote it.
//
// The proxy's recording thread is a second bundle: proxy/recording/exchange-pipeline.ts starts
// `./pipeline-worker.<its own extension>` next to its own file, which in the bundle is dist/cli/.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { rolldown } from 'rolldown'

const OUT_DIR = 'dist/cli'
const ENTRIES = {
  fitconform: 'dist/src/cli/main.js',
  'pipeline-worker': 'dist/proxy/recording/pipeline-worker.js',
  // import() cannot run inside the code-cached script on Node 20 (it fails, "A dynamic import callback
  // was not specified"), so the one module that calls it is a file of its own, run by Node's loader.
  'import-module': 'dist/src/shared/import-module.js',
}
const IMPORT_MODULE = resolve(ENTRIES['import-module'])
const BUNDLED_PACKAGES = new Set(['commander'])
const LAZY_REQUIRE = '\0lazy-require:'

/**
 * An import of a package or a Node built-in becomes a CommonJS module of one line,
 * `module.exports = require(name)`, which rolldown runs on first use. Left external, rolldown would
 * hoist every require() to the top of the bundle, and every run would load undici, fast-check, yaml,
 * and the built-ins of the proxy, the reference server and the self-test (worker_threads, http2,
 * child_process, readline, …); bundled, the packages would triple the bytes read at every start.
 * Imports of import-module.js become a require() of its own file the same way.
 */
const lazyRequires = {
  name: 'lazy-requires',
  resolveId(source, importer) {
    if (importer === undefined || source.startsWith('\0')) return null
    if (importer.startsWith(LAZY_REQUIRE)) return { id: source, external: true }
    if (/^[./]/.test(source))
      return resolve(dirname(importer), source) === IMPORT_MODULE ? `${LAZY_REQUIRE}./import-module.cjs` : null
    return BUNDLED_PACKAGES.has(source) ? null : LAZY_REQUIRE + source
  },
  load(id) {
    if (id.startsWith(LAZY_REQUIRE))
      return { code: `module.exports = require(${JSON.stringify(id.slice(LAZY_REQUIRE.length))})`, moduleType: 'js' }
  },
}

rmSync(OUT_DIR, { recursive: true, force: true })
for (const [name, input] of Object.entries(ENTRIES)) {
  const bundle = await rolldown({ input, platform: 'node', plugins: [lazyRequires], logLevel: 'warn' })
  const file = `${OUT_DIR}/${name}.cjs`
  await bundle.write({ file, format: 'cjs', codeSplitting: false, charset: 'ascii', comments: false })
  await bundle.close()
  assertAscii(file)
  if (name === 'fitconform') assertNoImportCall(file)
}
recordCodeCache()

/** bin/fitconform.js reads the bundle as latin1, which is only right for ASCII. */
function assertAscii(file) {
  const at = readFileSync(file).findIndex((byte) => byte > 0x7f)
  if (at !== -1) throw new Error(`${file} has a non-ASCII byte at offset ${at}: bin/fitconform.js reads it as latin1`)
}

function assertNoImportCall(file) {
  if (/\bimport\(/.test(readFileSync(file, 'latin1')))
    throw new Error(
      `${file} calls import(), which fails in a code-cached script: import through src/shared/import-module.ts`,
    )
}

/**
 * Runs the main job once with FITCONFORM_RECORD_CODE_CACHE set, so bin/fitconform.js writes the cache
 * as the process exits. Against the embedded reference server only: without the builder's
 * FITCONFORM_* variables (FITCONFORM_BASE_URL would point the run at their server, and it writes) and
 * proxy variables, in a folder of its own (no config file is found, the reports land there). Without
 * NODE_OPTIONS: V8 ignores a cache recorded under other flags. A build without a cache still works,
 * only slower, so a failed recording is a warning.
 */
function recordCodeCache() {
  const cache = `${OUT_DIR}/fitconform.cjs.cache`
  const folder = mkdtempSync(join(tmpdir(), 'fitconform-code-cache-'))
  try {
    const inherited = Object.entries(process.env).filter(
      ([name]) => !/^(FITCONFORM_|NODE_OPTIONS$|(https?|all|no)_proxy$)/i.test(name),
    )
    const env = { ...Object.fromEntries(inherited), FITCONFORM_RECORD_CODE_CACHE: '1' }
    const run = spawnSync(process.execPath, [resolve('bin/fitconform.js'), 'run', '--output-dir', folder], {
      cwd: folder,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    })
    if (!existsSync(cache)) {
      console.warn(
        `bundle-cli: no code cache recorded (fitconform run exited ${run.status}); the CLI works, it only starts slower.\n${run.stderr}`,
      )
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
