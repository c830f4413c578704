// A server that dies on one request: fuzz names that request and writes a reproduction that ends
// with it, instead of shrinking to whatever sequence met the dead server first.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadRules } from '../../../../src/load/load-rules.js'
import { runFuzz } from '../../../../src/fuzz/run-fuzz.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'

let reference: RunningReferenceServer
let front: Server
let frontUrl: string
let folder: string
let killer: string | undefined

/** Forwards to the reference server until the first PUT, on which it drops the connection and stops listening. */
function startCrashingFront(target: URL): Promise<void> {
  front = createServer((req, res) => {
    if (req.method === 'PUT' && killer === undefined) {
      killer = `PUT ${frontUrl}${req.url ?? ''}`
      front.close()
      req.socket.destroy()
      front.closeAllConnections()
      return
    }
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    req.pipe(forward)
  })
  return new Promise((resolve) =>
    front.listen(0, '127.0.0.1', () => {
      frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
      resolve()
    }),
  )
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fitconform-fuzz-stops-'))
  reference = await startReferenceServer({ onInternalError: () => undefined })
  await startCrashingFront(new URL(reference.url))
})
afterAll(async () => {
  front.closeAllConnections()
  await reference.close()
  await rm(folder, { recursive: true, force: true })
})

describe('fitconform fuzz against a server that stops answering', () => {
  it('reports the request the server died on and ends the reproduction with it', async () => {
    const { rules } = await loadRules()
    const outcome = await runFuzz({
      target: { baseUrl: new URL(frontUrl), tokens: { token: reference.tokens.token }, label: 'crashing' },
      rules,
      seed: 1,
      runs: 60,
      shrinkBudgetMs: 3_000,
      readOnly: false,
      outputDir: folder,
      timeoutMs: 5_000,
      insecure: false,
      configValues: {},
    })
    if (outcome.kind !== 'ran') throw new Error('the front server did not answer the preflight')
    expect(killer).toBeDefined()
    expect(outcome.failure?.rule).toBe('FUZZ-NO-ANSWER')
    expect(outcome.failure?.stoppedAfter).toBe(killer)
    const written = parse(await readFile(outcome.failure!.file, 'utf8')) as {
      scenarios: { steps: { request?: { method: string } }[] }[]
    }
    expect(written.scenarios[0]!.steps.at(-1)?.request?.method).toBe('PUT')
    expect(outcome.result.diagnostics.map((d) => d.message).join('\n')).toContain(
      `the last request it met was ${killer}`,
    )
  })
})
