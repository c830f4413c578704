/**
 * A run context for unit tests of the step loop: no server, the client given (a fake), the demo
 * token, and the run's values taken now.
 */
import { createRedactor } from '../../src/execute/finalize/redact.js'
import type { HttpClient } from '../../src/execute/http/http-exchange.js'
import type { RunContext } from '../../src/execute/run-context.js'
import { createRunValues } from '../../src/execute/run-values.js'

export function stepContext(client: HttpClient): RunContext {
  return {
    baseUrl: new URL('http://127.0.0.1:9/'),
    tokens: { token: 'test-token' },
    client,
    timeoutMs: 1000,
    strict: false,
    run: createRunValues(new Date()),
    config: {},
    redact: createRedactor(new Map()),
    interrupted: new AbortController().signal,
  }
}

/** A fake client that answers every request with how many it has been sent: `{"count":n}`. */
export function countingClient(): HttpClient {
  let count = 0
  return {
    send: () => {
      const body = Buffer.from(JSON.stringify({ count: ++count }))
      return Promise.resolve({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body,
        wireBytes: body.length,
        durationMs: 0,
      })
    },
    close: () => Promise.resolve(),
  }
}
