import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { UNDICI_AGENT_MODULE, UNDICI_REQUEST_MODULE } from '../../../src/execute/http-client.js'

const require = createRequire(import.meta.url)

/*
 * The runner loads two undici modules by path instead of undici's entry point (start-up time, see
 * src/execute/http-client.ts). These paths are undici's internals: an upgrade that moves or changes
 * them must fail here, not in a user's run.
 */
describe('the undici modules the runner loads by path', () => {
  it('are the Agent class that undici exports', () => {
    expect(require(UNDICI_AGENT_MODULE)).toBe((require('undici') as typeof import('undici')).Agent)
  })

  it('are the request method that undici gives every dispatcher', () => {
    const undici = require('undici') as typeof import('undici')
    const agent = new undici.Agent()
    expect(require(UNDICI_REQUEST_MODULE)).toBe(agent.request)
    void agent.close()
  })
})
