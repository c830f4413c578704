import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { formatStepEvidence } from '../../../../src/report/text/evidence.js'
import { answerUserEntryPoint, startServerForTest, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { ranResult, runFixture, targetOf } from '../../../helpers/run-fixture.js'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/runner/create-then-read.yaml', import.meta.url))
const ACTIVITY = 'application/vnd.com.service.FitnessActivity+json'

/**
 * Creates properly and answers the read-back faithfully, except that the step's read, written on a
 * connection that already carried a request, finds it closed (as an idle keep-alive connection the server
 * closed just then): the read is the run's to send again, and the server's answer is judged.
 */
async function serverThatClosesTheReusedConnectionOnce(): Promise<LoopbackServer> {
  let created = { notes: '', start_time: '' }
  let deleted = false
  let reads = 0
  const used = new WeakSet<Socket>()
  return startServerForTest((request, response) => {
    const reused = used.has(request.socket)
    used.add(request.socket)
    if (answerUserEntryPoint(request, response)) return
    if (request.method === 'POST') {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        created = JSON.parse(body) as typeof created
        response.writeHead(201, { location: '/fitnessActivities/7' }).end()
      })
    } else if (request.method === 'DELETE') {
      deleted = true
      response.writeHead(204).end()
    } else if (request.url === '/fitnessActivities/7' && !deleted) {
      // The first read is the create step's proof of ownership; the second the step that reads it back.
      if (++reads === 2 && reused) {
        request.socket.destroy()
        return
      }
      const { notes, start_time } = created
      response
        .writeHead(200, { 'content-type': ACTIVITY })
        .end(JSON.stringify({ uri: '/fitnessActivities/7', type: 'Running', start_time, notes }))
    } else {
      response.writeHead(404).end()
    }
  })
}

describe('a run whose read finds its reused keep-alive connection closed', () => {
  it('passes the read, sent once more on a fresh connection, and the step says so', async () => {
    const server = await serverThatClosesTheReusedConnectionOnce()
    const result = ranResult(
      await runFixture(FIXTURE, targetOf(server.url, { token: 'reuse-test-token' }), { concurrency: 1 }),
    )
    expect(result.summary.failed).toBe(0)
    const read = result.scenarios[0]!.steps[1]!
    expect(read.status).toBe('passed')
    expect(read.response?.resent).toMatch(/^sent a second time, on a fresh connection: the keep-alive connection/)
    // The step records one request: the one that was answered.
    expect(read.request?.method).toBe('GET')
    expect(read.curl?.match(/curl /g)).toHaveLength(1)
    expect(formatStepEvidence(read, { colors: false })).toContain(
      `response:\n    (${read.response?.resent})\n    HTTP 200`,
    )
    // The proof read, the step's read that found the connection closed, its second send, then cleanup's.
    expect(server.requests.filter((line) => line === 'GET /fitnessActivities/7').length).toBeGreaterThanOrEqual(3)
    expect(server.requests).toContain('DELETE /fitnessActivities/7')
  })
})
