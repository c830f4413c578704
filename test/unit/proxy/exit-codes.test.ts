import { describe, expect, it } from 'vitest'
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../../proxy/commands/io.js'
import { EXIT } from '../../../src/cli/exit-codes.js'

describe('proxy exit codes', () => {
  // proxy/ may not import src/cli, so it states the codes again; CI pipelines read them as one set.
  it.each([
    { name: 'EXIT_OK', proxy: EXIT_OK, cli: EXIT.ok },
    { name: 'EXIT_FINDINGS', proxy: EXIT_FINDINGS, cli: EXIT.failed },
    { name: 'EXIT_USAGE', proxy: EXIT_USAGE, cli: EXIT.usage },
  ])('$name equals the CLI\'s code', ({ proxy, cli }) => {
    expect(proxy).toBe(cli)
  })
})
