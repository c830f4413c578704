// Node module hooks that run our TypeScript sources without a build, for the threads the tests start
// (the proxy's recording worker): vitest transforms what it imports itself, but a worker thread is
// loaded by Node. `./x.js` resolves to `./x.ts` when only the latter exists (NodeNext specifiers);
// `.ts` files are stripped of their types by oxc (rolldown, which vite brings along).
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'
import { transformSync } from 'rolldown/utils'

export async function resolve(specifier, context, nextResolve) {
  if (specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('file:')) && context.parentURL?.startsWith('file:')) {
    const candidate = new URL(specifier, context.parentURL)
    if (!existsSync(fileURLToPath(candidate))) {
      const typescript = new URL(candidate.href.replace(/\.js$/, '.ts'))
      if (existsSync(fileURLToPath(typescript))) return { url: typescript.href, shortCircuit: true }
    }
  }
  return nextResolve(specifier, context)
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context)
  const file = fileURLToPath(url)
  const { code, errors } = transformSync(file, readFileSync(file, 'utf8'), { sourcemap: false })
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((error) => error.message).join('; ')}`)
  return { format: 'module', source: code, shortCircuit: true }
}
