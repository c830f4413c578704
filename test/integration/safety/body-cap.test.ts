import type { ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { RunResult } from '../../../src/model/result.js'
import { MAX_RECORDED_DEPTH } from '../../../src/execute/step/json-depth.js'
import { answerUserEntryPoint, startServerForTest } from '../../helpers/loopback-server.js'
import { ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/runner/read-profile.yaml', import.meta.url))
const WIRE_FIXTURE = fileURLToPath(new URL('../../fixtures/runner/read-profile-wire.yaml', import.meta.url))
const CAP = 64 * 1024

/** Runs the one-GET scenario with a small --max-body-bytes against a server whose /profile answer is `answer`. */
async function runAgainst(answer: (response: ServerResponse) => void, fixture = FIXTURE): Promise<RunResult> {
  const server = await startServerForTest(
    (request, response) =>
      answerUserEntryPoint(request, response) ||
      (request.url === '/profile' ? answer(response) : response.writeHead(404).end()),
  )
  return ranResult(
    await runFixture(fixture, targetOf(server.url, { token: 'body-cap-token' }), { concurrency: 1, maxBodyBytes: CAP }),
  )
}

function expectBlocked(result: RunResult): void {
  const scenario = result.scenarios[0]!
  expect(scenario.steps[0]!.status).toBe('blocked')
  expect(scenario.steps[0]!.error?.code).toBe('E_BODY_TOO_LARGE')
  expect(scenario.status).toBe('skipped')
  expect(scenario.skipReason).toMatch(/not judged: .*larger than --max-body-bytes \(65536 bytes\)/)
  // Not a failure of any rule: the spec sets no size.
  expect(scenario.steps[0]!.assertions.filter((a) => !a.ok)).toEqual([])
  expect(result.summary.failed).toBe(0)
}

describe('--max-body-bytes bounds what a run reads', () => {
  it.each([
    { how: 'through the HTTP client', fixture: FIXTURE },
    { how: 'on a raw socket (wire: true)', fixture: WIRE_FIXTURE },
  ])('stops reading an endless chunked body at the cap and blocks the step, $how', async ({ fixture }) => {
    let written = 0
    const result = await runAgainst((response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(16 * 1024, 0x20)
      const pump = (): void => {
        while (!response.destroyed && written < 1024 ** 3) {
          written += chunk.length
          if (!response.write(chunk)) return void response.once('drain', pump)
        }
      }
      pump()
    }, fixture)
    expectBlocked(result)
    // What the server got out before we hung up: the cap plus what socket buffers hold, far from endless.
    expect(written).toBeLessThan(16 * 1024 * 1024)
  })

  it('stops decoding a gzip bomb at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024))
    const result = await runAgainst((response) =>
      response
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        })
        .end(bomb),
    )
    expect(bomb.length).toBeLessThan(CAP)
    expectBlocked(result)
  })

  it('judges a JSON body nested 30,000 levels deep (redacted without recursion) and records it as text instead of losing the step', async () => {
    const depth = 30_000
    const result = await runAgainst((response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(depth) + ']'.repeat(depth)),
    )
    const step = result.scenarios[0]!.steps[0]!
    expect(step.status).toBe('passed')
    // Reports walk values recursively: past MAX_RECORDED_DEPTH levels the body is kept as the text it came as.
    expect(step.response?.body).toBe('['.repeat(depth) + ']'.repeat(depth))
    expect(depth).toBeGreaterThan(MAX_RECORDED_DEPTH)
  })

  it('judges a body under the cap as usual', async () => {
    const result = await runAgainst((response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'x' })),
    )
    expect(result.scenarios[0]!.steps[0]!.status).toBe('passed')
  })
})
