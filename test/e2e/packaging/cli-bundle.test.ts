import { readFileSync } from 'node:fs'
import Module from 'node:module'
import { join } from 'node:path'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/cli.js'

// bin/fitconform.js compiles dist/cli/fitconform.cjs with the code cache the build recorded
// (scripts/bundle-cli.mjs). A cache V8 refuses costs every run its compile time without a word, so
// the build's cache must fit the build's bundle, compiled the way the bin compiles it.
describe('the built CLI', () => {
  it('has a code cache that V8 accepts for its bundle', () => {
    const bundle = join(REPO_ROOT, 'dist', 'cli', 'fitconform.cjs')
    const script = new vm.Script(Module.wrap(readFileSync(bundle, 'latin1')), {
      filename: bundle,
      cachedData: readFileSync(`${bundle}.cache`),
    })
    expect(script.cachedDataRejected).toBe(false)
  })
})
