// Shrinking keeps the failure it found: a candidate that fails another way (here a request left
// unanswered past the timeout, as under load) does not replace the reproduction, so a fault the
// fuzzer found is never reported as an unjudged step that does not fail again (FUZZ-ERROR).
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../../../src/load/load-rules.js'
import { runFuzz } from '../../../../src/fuzz/run-fuzz.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'

let mutant: RunningReferenceServer
let front: Server
let frontUrl: string
let folder: string
const held: ServerResponse[] = []

/** How long the front holds requests once armed: past the shrinking budget, so the replay and the sweep after it go through. */
const HOLDING_MS = 5_000

/**
 * Forwards to the mutant server. Once it has answered a read that shows the mutant's fault (notes
 * created with a line break read back without it), every second request after the next create is
 * held unanswered for a while: the shrinking that follows meets timeouts, as a loaded machine makes it.
 */
function startFlakyFront(target: URL): Promise<void> {
  const withLineBreak = new Set<string>()
  let faultShown = false
  let armedAt: number | undefined
  let armedUntil = 0
  let count = 0
  front = createServer((req: IncomingMessage, res: ServerResponse) => {
    count++
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const isCreate = req.method === 'POST' && req.url === '/fitnessActivities'
      if (faultShown && armedAt === undefined && isCreate) {
        armedAt = count
        armedUntil = Date.now() + HOLDING_MS
      }
      if (armedAt !== undefined && Date.now() < armedUntil && (count - armedAt) % 2 === 1) {
        held.push(res)
        return
      }
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const answered: Buffer[] = []
          answer.on('data', (chunk: Buffer) => answered.push(chunk))
          answer.on('end', () => {
            const text = Buffer.concat(answered).toString('utf8')
            if (isCreate && answer.headers.location && notesOf(body.toString('utf8'))?.includes('\n'))
              withLineBreak.add(answer.headers.location)
            if (req.method === 'GET' && withLineBreak.has(req.url ?? '') && notesOf(text)?.includes('\n') === false)
              faultShown = true
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(Buffer.concat(answered))
          })
        },
      )
      forward.end(body)
    })
  })
  return new Promise((resolve) =>
    front.listen(0, '127.0.0.1', () => {
      frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
      resolve()
    }),
  )
}

function notesOf(text: string): string | undefined {
  try {
    const notes = (JSON.parse(text) as { notes?: unknown }).notes
    return typeof notes === 'string' ? notes : undefined
  } catch {
    return undefined
  }
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fitconform-fuzz-shrink-'))
  mutant = await startReferenceServer({ mutant: 'notes-line-breaks-dropped', onInternalError: () => undefined })
  await startFlakyFront(new URL(mutant.url))
})
afterAll(async () => {
  for (const res of held) res.destroy()
  front.closeAllConnections()
  front.close()
  await mutant.close()
  await rm(folder, { recursive: true, force: true })
})

describe('fitconform fuzz shrinking under timeouts', () => {
  it('reports the rule it found broken, not a step that timed out while shrinking', async () => {
    const { rules } = await loadRules()
    const outcome = await runFuzz({
      target: { baseUrl: new URL(frontUrl), tokens: { token: mutant.tokens.token }, label: 'flaky' },
      rules,
      seed: 1,
      runs: 60,
      shrinkBudgetMs: 3_000,
      readOnly: false,
      outputDir: folder,
      timeoutMs: 1_500,
      insecure: false,
      configValues: {},
    })
    if (outcome.kind !== 'ran') throw new Error('the front server did not answer the preflight')
    expect(held.length).toBeGreaterThan(0)
    expect(outcome.failure?.rule).toBe('CREATE-RECORDS')
  }, 120_000)
})
