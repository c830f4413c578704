import { describe, expect, it } from 'vitest'
import { createOwnershipGate, WriteRefusedError } from '../../../src/execute/safety/ownership-gate.js'
import type { HttpClient } from '../../../src/execute/http/http-exchange.js'

const BASE = new URL('http://127.0.0.1:9/api')

describe('the ownership gate', () => {
  it.each([
    ['GET', 'http://127.0.0.1:9/api/fitnessActivities/', true],
    ['HEAD', 'http://other.example/anything', true],
    ['POST', 'http://127.0.0.1:9/api/fitnessActivities', true],
    ['POST', 'http://127.0.0.1:9/api/fitnessActivities?pageSize=1', true],
    ['PUT', 'http://127.0.0.1:9/api/profile', true],
    ['DELETE', 'http://127.0.0.1:9/api/fitnessActivities', false],
    ['DELETE', 'http://127.0.0.1:9/api/fitnessActivities/', false],
    ['PUT', 'http://127.0.0.1:9/api/fitnessActivities/', false],
    ['DELETE', 'http://127.0.0.1:9/api/fitnessActivities/5', false],
    ['DELETE', 'http://127.0.0.1:9/fitnessActivities/7', false],
    ['DELETE', 'http://other.example/api/fitnessActivities/7', false],
    ['DELETE', 'http://127.0.0.1:9/api/profile', false],
    ['PATCH', 'http://127.0.0.1:9/api/fitnessActivities/7', true],
    ['PUT', 'http://127.0.0.1:9/api/fitnessActivities/7?x=1', true],
  ])('%s %s is let out: %s (activity 7 admitted)', (method, url, allowed) => {
    const gate = createOwnershipGate(BASE)
    gate.admit('http://127.0.0.1:9/api/fitnessActivities/7')
    expect(gate.refusal(method, url) === undefined).toBe(allowed)
  })

  it('once writes are stopped, lets out only deletes of admitted activities and profile restores', () => {
    const gate = createOwnershipGate(BASE)
    gate.admit('http://127.0.0.1:9/api/fitnessActivities/7')
    gate.stopWrites('the ledger could not be written')
    expect(gate.refusal('DELETE', 'http://127.0.0.1:9/api/fitnessActivities/7')).toBeUndefined()
    expect(gate.refusal('PUT', 'http://127.0.0.1:9/api/profile')).toBeUndefined()
    expect(gate.refusal('POST', 'http://127.0.0.1:9/api/fitnessActivities')).toMatch(
      /writes are stopped: the ledger could not be written/,
    )
    expect(gate.refusal('PUT', 'http://127.0.0.1:9/api/fitnessActivities/7')).toMatch(/writes are stopped/)
  })

  it('sends nothing through its client for a refused write', async () => {
    const sent: string[] = []
    const client: HttpClient = {
      send: async (request) =>
        (sent.push(`${request.method} ${request.url}`),
        { status: 204, headers: {}, body: Buffer.alloc(0), wireBytes: 0 }) as never,
      close: async () => undefined,
    }
    const guarded = createOwnershipGate(BASE).guard(client)
    await expect(
      guarded.send({ method: 'DELETE', url: 'http://127.0.0.1:9/api/fitnessActivities/', headers: {}, wire: false }),
    ).rejects.toBeInstanceOf(WriteRefusedError)
    await guarded.send({ method: 'GET', url: 'http://127.0.0.1:9/api/user', headers: {}, wire: false })
    expect(sent).toEqual(['GET http://127.0.0.1:9/api/user'])
  })
})
