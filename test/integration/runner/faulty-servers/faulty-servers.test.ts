import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { loadSuites } from '../../../../src/load/load-suites.js'
import type { RunResult } from '../../../../src/model/result.js'
import type { ConformanceOutcome } from '../../../../src/execute/run-conformance.js'
import {
  answerUserEntryPoint,
  startLoopbackServer,
  startServerForTest,
  type LoopbackServer,
} from '../../../helpers/loopback-server.js'
import { ranResult, runLoaded, targetOf } from '../../../helpers/run-fixture.js'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/runner/create-then-read.yaml', import.meta.url))
const ACTIVITY = 'application/vnd.com.service.FitnessActivity+json'

/** The notes and start time the last create sent (the notes carry the run marker): what a faithful read-back returns. */
let createdNotes = ''
let createdStart = ''

/** A server that creates properly (201 + Location) and answers the read-back with `misbehave`. */
async function serverThatBreaksOnRead(
  misbehave: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  let deleted = false
  return startServerForTest((request, response) => {
    if (answerUserEntryPoint(request, response)) {
      return
    } else if (request.method === 'POST') {
      deleted = false
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        ;({ notes: createdNotes, start_time: createdStart } = JSON.parse(body) as { notes: string; start_time: string })
        response.writeHead(201, { location: '/fitnessActivities/7' }).end()
      })
    } else if (request.method === 'DELETE') {
      deleted = true
      response.writeHead(204).end()
    } else if (request.url === '/fitnessActivities/7' && !deleted) {
      misbehave(request, response)
    } else {
      response.writeHead(404).end()
    }
  })
}

async function run(url: string, timeoutMs = 1_000): Promise<ConformanceOutcome> {
  const loaded = await loadSuites([FIXTURE])
  expect(loaded.diagnostics).toEqual([])
  return runLoaded(loaded, targetOf(url, { token: 'faulty-test-token' }), { concurrency: 1, timeoutMs })
}

function readStep(result: RunResult) {
  return result.scenarios[0]!.steps[1]!
}

describe('a faulty server gives a failed scenario with a clear message, within the timeouts, and cleanup deletes only what it proves the run created', () => {
  it.each([
    {
      fault: 'resets the connection mid-body',
      misbehave: (_: IncomingMessage, response: ServerResponse) => {
        response.writeHead(200, { 'content-type': ACTIVITY, 'content-length': '500' })
        response.write('{"uri":"/fitnessActivities/7","ty')
        setTimeout(() => response.socket?.destroy(), 20)
      },
      expectation: /broke off|terminated|closed|socket/i,
    },
    {
      fault: 'never answers',
      misbehave: () => undefined,
      expectation: /no complete response .* within 1000 ms/,
    },
    {
      fault: 'sends a body that is not JSON',
      misbehave: (_: IncomingMessage, response: ServerResponse) =>
        response.writeHead(200, { 'content-type': ACTIVITY }).end('<html>oops</html>'),
      expectation: /the body is not JSON: "<html>oops<\/html>"/,
    },
    {
      fault: 'announces a longer Content-Length than it sends',
      misbehave: (_: IncomingMessage, response: ServerResponse) => {
        response.socket?.end(
          'HTTP/1.1 200 OK\r\ncontent-type: ' + ACTIVITY + '\r\ncontent-length: 100\r\n\r\n{"uri":"/x"}',
        )
      },
      expectation: /broke off|terminated|closed|other side/i,
    },
    {
      fault: 'answers 500 to everything',
      misbehave: (_: IncomingMessage, response: ServerResponse) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end('boom'),
      expectation: /status: expected equal to 200, got 500/,
    },
  ])('when the server $fault', async ({ misbehave, expectation }) => {
    const server = await serverThatBreaksOnRead(misbehave)
    const started = performance.now()
    const result = ranResult(await run(server.url))
    expect(performance.now() - started).toBeLessThan(8_000)
    expect(result.summary.failed).toBe(1)
    const step = readStep(result)
    const said = [step.error?.message ?? '', ...step.assertions.filter((a) => !a.ok).map((a) => a.message)].join('\n')
    expect(said).toMatch(expectation)
    // Cleanup read the activity again, could not prove it the run's own, and sent nothing to it.
    expect(server.requests.filter((line) => line === 'GET /fitnessActivities/7').length).toBeGreaterThanOrEqual(2)
    expect(server.requests).not.toContain('DELETE /fitnessActivities/7')
    expect(result.scenarios[0]!.cleanup[0]!.error?.message).toMatch(/not proven ours, left in place/)
  })

  it('retries a 503 with Retry-After within the timeout, then leaves the step not judged (server busy), failing no rule', async () => {
    let reads = 0
    const server = await serverThatBreaksOnRead((_, response) => {
      reads++
      response.writeHead(503, { 'retry-after': '1' }).end()
    })
    const result = ranResult(await run(server.url, 2_500))
    const step = readStep(result)
    expect(step.status).toBe('blocked')
    expect(step.error?.code).toBe('E_SERVER_BUSY')
    expect(step.block?.reason).toMatch(/server busy: .* answered 503 to all 3 sends/)
    expect(result.summary.failed).toBe(0)
    expect(result.busy?.stayedBusy).toBeGreaterThanOrEqual(1)
    expect(reads).toBeGreaterThanOrEqual(3) // the first try and two waits of one second fit in 2.5 s (then cleanup's own read)
    expect(server.requests).not.toContain('DELETE /fitnessActivities/7')
  })

  it('passes once a busy server answers after its Retry-After', async () => {
    let reads = 0
    const server = await serverThatBreaksOnRead((_, response) => {
      if (++reads === 1) return void response.writeHead(429, { 'retry-after': '1' }).end()
      response.writeHead(200, { 'content-type': ACTIVITY }).end(
        JSON.stringify({
          uri: '/fitnessActivities/7',
          type: 'Running',
          start_time: createdStart,
          notes: createdNotes,
        }),
      )
    })
    const result = ranResult(await run(server.url, 3_000))
    expect(result.summary.failed).toBe(0)
    expect(server.requests).toContain('DELETE /fitnessActivities/7')
  })

  it('fails the step that cannot connect midway (the server went away after the create)', async () => {
    const server = await serverThatBreaksOnRead((request) => {
      request.socket.destroy()
    })
    const result = ranResult(await run(server.url))
    expect(readStep(result).status).toBe('error')
    expect(result.summary.failed).toBe(1)
  })

  it('turns a Location that is not a URL into a failed step, not a crash of the run', async () => {
    const server = await startServerForTest((request, response) => {
      request.resume()
      if (answerUserEntryPoint(request, response)) return
      if (request.method === 'POST') response.writeHead(201, { location: 'http://bad host/fitnessActivities/1' }).end()
      else response.writeHead(404).end()
    })
    const result = ranResult(await run(server.url))
    const step = readStep(result)
    expect(step.status).toBe('error')
    expect(step.error?.code).toBe('E_BAD_URL')
    expect(result.summary.failed).toBe(1)
  })

  it('judges a server that gzips its JSON although we asked for identity, on the decoded body', async () => {
    const server = await serverThatBreaksOnRead((request, response) => {
      expect(request.headers['accept-encoding']).toBe('identity')
      const body = gzipSync(
        JSON.stringify({ uri: '/fitnessActivities/7', type: 'Running', start_time: createdStart, notes: createdNotes }),
      )
      response
        .writeHead(200, { 'content-type': ACTIVITY, 'content-encoding': 'gzip', 'content-length': String(body.length) })
        .end(body)
    })
    const result = ranResult(await run(server.url))
    expect(result.summary.failed).toBe(0)
  })

  it('says the server cannot be reached at all when nothing listens (exit 3 in the CLI)', async () => {
    const gone = await startLoopbackServer(() => undefined)
    await gone.close()
    const outcome = await run(gone.url)
    expect(outcome.kind).toBe('unreachable')
    if (outcome.kind === 'unreachable')
      expect(outcome.diagnostic.message).toMatch(/cannot connect to http:\/\/127.0.0.1:\d+ \(ECONNREFUSED\)/)
  })
})

describe('the preflight: GET /user with the main token must answer 2xx before any scenario runs (exit 3 in the CLI)', () => {
  it.each([
    {
      name: 'a refused token',
      answer: (response: ServerResponse) =>
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"reason":"invalid token"}'),
      sentence: 'the token was refused (401)',
    },
    {
      name: 'a base URL that is not the API root',
      answer: (response: ServerResponse) =>
        response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
      sentence: 'this is not the API root: /user answered 404 with text/html',
    },
    { name: 'a server that never answers', answer: () => undefined, sentence: 'no answer within 1 s' },
  ])(
    '$name ends the run before the first scenario, in one sentence with the exchange',
    async ({ answer, sentence }) => {
      const server = await startServerForTest((request, response) => {
        request.resume()
        answer(response)
      })
      const outcome = await run(server.url)
      expect(outcome.kind).toBe('unreachable')
      if (outcome.kind !== 'unreachable') return
      expect(outcome.diagnostic.code).toBe('E_PREFLIGHT')
      expect(outcome.diagnostic.message).toBe(`preflight GET ${server.url}/user with --token failed: ${sentence}`)
      expect(outcome.diagnostic.details?.[0]).toBe(
        `request: GET ${server.url}/user${sentence.startsWith('no answer') ? '' : ' (Authorization: Bearer $FITCONFORM_TOKEN)'}`,
      )
      expect(JSON.stringify(outcome.diagnostic)).not.toContain('faulty-test-token')
      // Nothing else was sent: no scenario ran against a server that cannot serve them.
      expect(server.requests).toEqual(['GET /user'])
    },
  )

  it('checks --other-token too, but never the revoked or limited tokens (their refusals are what the 403 rules judge)', async () => {
    const server = await startServerForTest((request, response) => {
      request.resume()
      const ok = request.headers.authorization === 'Bearer main-token-1234'
      response.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' }).end('{}')
    })
    const loaded = await loadSuites([FIXTURE])
    const settings = { concurrency: 1, timeoutMs: 1_000 }
    const withRevoked = await runLoaded(
      loaded,
      targetOf(
        server.url,
        { token: 'main-token-1234', 'revoked-token': 'revoked-1234', 'limited-token': 'limited-1234' },
        'x',
      ),
      settings,
    )
    expect(withRevoked.kind).toBe('ran')
    const withOther = await runLoaded(
      loaded,
      targetOf(server.url, { token: 'main-token-1234', 'other-token': 'other-1234' }, 'x'),
      settings,
    )
    expect(withOther.kind).toBe('unreachable')
    if (withOther.kind === 'unreachable')
      expect(withOther.diagnostic.message).toMatch(/with --other-token failed: the token was refused \(403\)$/)
  })
})
