import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { UNDICI_AGENT_MODULE } from '../../../../src/execute/http/http-client.js'

const require = createRequire(import.meta.url)

/*
 * The runner loads undici's Agent by path instead of undici's entry point (start-up time, see
 * src/execute/http/http-client.ts). This path is undici's internals: an upgrade that moves or changes
 * it must fail here, not in a user's run.
 */
describe('the undici module the runner loads by path', () => {
  it('is the Agent class that undici exports', () => {
    expect(require(UNDICI_AGENT_MODULE)).toBe((require('undici') as typeof import('undici')).Agent)
  })
})
