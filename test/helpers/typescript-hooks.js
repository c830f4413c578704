// Node module hooks that run our TypeScript sources without a build, for the threads and processes the
// tests start (the proxy's recording worker, the CLI spawned from src/): vitest transforms what it
// imports itself, but those are loaded by Node. A `.ts` entry is handed to jiti, the same loader that
// reads `fitconform.config.ts` (src/cli/options/config-file.ts): it strips the types of that file and of
// everything it imports (NodeNext `./x.js` specifiers find `./x.ts`) and evaluates them itself, so
// Node only ever sees this small module. Entries export nothing Node needs to see, which is why the
// wrapper exports nothing. Our dependencies are plain JavaScript: jiti loads them natively (transforming
// undici and ajv as well made each worker start twice as slow).
import { readFileSync } from 'node:fs'
import process from 'node:process'
import { fileURLToPath, URL } from 'node:url'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
const NATIVE_MODULES = JSON.stringify(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }))
// The transform cache lives with the project, not in the per-run TMPDIR the tests clean; a child that
// cannot write files (the full-disk test's `ulimit -f`) is started with JITI_FS_CACHE=false.
const FS_CACHE = JSON.stringify(
  process.env.JITI_FS_CACHE === 'false'
    ? false
    : fileURLToPath(new URL('../../node_modules/.cache/jiti', import.meta.url)),
)

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context)
  const file = JSON.stringify(fileURLToPath(url))
  return {
    format: 'module',
    shortCircuit: true,
    source: `import { createJiti } from 'jiti'\nawait createJiti(${file}, { nativeModules: ${NATIVE_MODULES}, fsCache: ${FS_CACHE} }).import(${file})\n`,
  }
}
