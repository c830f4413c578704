// `parallel:` groups: their requests are really in flight together, their captures land in a
// defined order whatever order the answers come in, and every create of a group is registered with
// the ownership gate and the cleanup ledger (created N, deleted N).
import { fileURLToPath } from 'node:url'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { loadSuites } from '../../../src/load/load-suites.js'
import { answerUserEntryPoint, startServerForTest } from '../../helpers/loopback-server.js'
import { ranResult, runLoaded, targetOf } from '../../helpers/run-fixture.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

const CREATES = fileURLToPath(new URL('../../../suites/concurrency/creates-in-flight.yaml', import.meta.url))

let reference: RunningReferenceServer
beforeAll(async () => {
  reference = await startReferenceServer()
})
afterAll(() => reference.close())

async function run(file: string, baseUrl: string, token: string, ledgerDir?: string) {
  const loaded = await loadSuites([file])
  expect(loaded.diagnostics).toEqual([])
  const outcome = await runLoaded(loaded, targetOf(baseUrl, { token }, 'test'), ledgerDir ? { ledgerDir } : {})
  return ranResult(outcome)
}

it('sends the copies of a group at once and captures their answers as a list in index order', async () => {
  // Answers no copy until all three are waiting: copies sent one after another would never be answered.
  const waiting: (() => void)[] = []
  const loopback = await startServerForTest((request, response) => {
    request.resume()
    if (answerUserEntryPoint(request, response)) return
    const arrived = waiting.length
    const index = new URL(request.url ?? '/', 'http://x').searchParams.get('copy')
    waiting.push(() =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ copy: Number(index), arrived })),
    )
    if (waiting.length === 3) for (const answer of waiting.splice(0)) answer()
  })
  const file = join(makeTempDir('fitconform-parallel-'), 'together.yaml')
  writeFileSync(
    file,
    `scenarios:
  - id: together
    title: three reads in flight together
    rules: [USER-READ]
    steps:
      - name: three at once
        parallel:
          - name: read
            repeat: 3
            request: { method: GET, url: "/together?copy=\${index}" }
            expect: { status: 200 }
            capture: { copies: body.copy }
      - name: the captures follow index order
        expect:
          checks:
            - { path: copies, equals: [0, 1, 2] }
`,
  )
  const result = await run(file, loopback.url, 'parallel-test-token')
  const scenario = result.scenarios[0]!
  expect(scenario.steps.map((step) => [step.name, step.status])).toEqual([
    ['read (1 of 3)', 'passed'],
    ['read (2 of 3)', 'passed'],
    ['read (3 of 3)', 'passed'],
    ['the captures follow index order', 'passed'],
  ])
  expect(scenario.status).toBe('passed')
})

it('registers every create of a group: five distinct activities, all deleted at the end', async () => {
  const result = await run(CREATES, reference.url, reference.tokens.token, makeTempDir('fitconform-parallel-ledger-'))
  expect(result.scenarios[0]!.status).toBe('passed')
  expect(
    result.scenarios[0]!.cleanup.filter((step) => step.name.startsWith('clean up')).map((step) => step.status),
  ).toEqual(Array(5).fill('passed'))
  expect(result.cleanup).toEqual(expect.objectContaining({ created: 5, deleted: 5 }))
})

it('fails the create whose Location another create in flight also got (create-id-race)', async () => {
  const racing = await startReferenceServer({ mutant: 'create-id-race' })
  try {
    const result = await run(CREATES, racing.url, racing.tokens.token)
    const failed = result.scenarios[0]!.steps.filter((step) => step.status === 'failed').flatMap((step) =>
      step.assertions.filter((a) => !a.ok).flatMap((a) => a.rules),
    )
    expect(result.scenarios[0]!.status).toBe('failed')
    expect(new Set(failed)).toEqual(new Set(['CREATE-LOCATION']))
  } finally {
    await racing.close()
  }
})
