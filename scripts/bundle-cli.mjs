// Build step after tsc: the CLI that bin/fitconform.js starts, bundled from dist/ into dist/cli/.
//
// Why (issue 15, the 500-test workload): a `fitconform run` loaded about 110 ES modules of its own
// before its first request, and Node 20's ES module loader spends about a millisecond on each
// (resolve, stat, read, compile, link). Bundled, the same run loads about 30 files: 40–100 ms less
// of every run, measured side by side (README § Benchmarks). Each command's modules stay in chunks of
// their own, loaded when that command runs, as before. Packages (commander, undici, yaml, ajv, …)
// stay in node_modules, loaded as they were. The library API (`import … from 'fitconform'`) and the
// benchmarks keep using dist/src/ as tsc wrote it.
//
// The proxy's recording thread is a second entry: proxy/exchange-pipeline.ts starts
// `./pipeline-worker.js` next to its own file, which in the bundle is dist/cli/.
import { rmSync } from 'node:fs'
import { rolldown } from 'rolldown'

const OUT_DIR = 'dist/cli'

rmSync(OUT_DIR, { recursive: true, force: true })
const bundle = await rolldown({
  input: { fitconform: 'dist/src/cli/main.js', 'pipeline-worker': 'dist/proxy/pipeline-worker.js' },
  platform: 'node',
  // Only our own modules are bundled: a bare specifier is a package or a Node built-in.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  logLevel: 'warn',
})
await bundle.write({ dir: OUT_DIR, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' })
await bundle.close()
