// `fitconform fuzz` against the reference server: the fuzz-only mutants are found with a fixed seed,
// each shrunk failure is written as a scenario file that fails again with `fitconform run`, and the
// conforming variants survive (the model accepts every answer the spec allows).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../../../src/load/load-rules.js'
import type { Rule } from '../../../../src/model/scenario.js'
import { runFuzz } from '../../../../src/fuzz/run-fuzz.js'
import { fuzzMutants, startReferenceServer, type ServerMode } from '../../../../reference-server/index.js'
import { runCli } from '../../../helpers/cli.js'

let rules: Rule[]
let folder: string
beforeAll(async () => {
  rules = (await loadRules()).rules
  folder = await mkdtemp(join(tmpdir(), 'fitconform-fuzz-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

async function fuzz(options: { mode?: ServerMode; mutant?: string; runs: number; readOnly?: boolean }) {
  const server = await startReferenceServer({
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.mutant ? { mutant: options.mutant } : {}),
    onInternalError: () => undefined,
  })
  const outputDir = join(folder, options.mutant ?? options.mode ?? 'reference')
  try {
    const outcome = await runFuzz({
      target: { baseUrl: new URL(server.url), tokens: { token: server.tokens.token }, label: 'test' },
      rules,
      seed: 1,
      runs: options.runs,
      shrinkBudgetMs: 3_000,
      readOnly: options.readOnly ?? false,
      outputDir,
      ledgerDir: outputDir,
      timeoutMs: 5_000,
      insecure: false,
      configValues: {},
    })
    if (outcome.kind !== 'ran') throw new Error('unreachable')
    return outcome
  } finally {
    await server.close()
  }
}

// Concurrent: most of a fuzz run is waiting on loopback requests and one-second waits.
describe.concurrent('fitconform fuzz', () => {
  it.each(fuzzMutants.map((mutant) => mutant.name))(
    'finds the fuzz-only mutant %s with seed 1, and its reproduction fails again with fitconform run',
    async (mutant) => {
      const outcome = await fuzz({ mutant, runs: 60 })
      expect(outcome.failure).toBeDefined()
      const failure = outcome.failure!
      expect(failure.file).toMatch(new RegExp(`fuzz/${failure.rule}-1\\.yaml$`))
      expect(failure.reproduced).toBe(true)
      expect(outcome.result.summary.failed).toBe(1)
      // The file a user gets, run as a user runs it, against a fresh server with the same mutant.
      const server = await startReferenceServer({ mutant, onInternalError: () => undefined })
      try {
        const run = await runCli([
          'run',
          failure.file,
          '--base-url',
          server.url,
          '--token',
          server.tokens.token,
          '--reporter',
          'console',
          '--output-dir',
          join(folder, `${mutant}-replay`),
        ])
        expect(run.code).toBe(1)
        expect(run.stdout).toContain(failure.rule)
        const onReference = await startReferenceServer({ onInternalError: () => undefined })
        try {
          const pass = await runCli([
            'run',
            failure.file,
            '--base-url',
            onReference.url,
            '--token',
            onReference.tokens.token,
            '--reporter',
            'console',
            '--output-dir',
            join(folder, `${mutant}-reference`),
          ])
          expect(pass.code).toBe(0)
        } finally {
          await onReference.close()
        }
      } finally {
        await server.close()
      }
      expect(await readFile(failure.file, 'utf8')).toContain('npx fitconform run')
    },
    300_000,
  )

  it.each(['reference', 'quirky', 'other-choices'] as const)(
    'finds nothing wrong with the conforming %s server',
    async (mode) => {
      const outcome = await fuzz({ mode, runs: 15 })
      expect(outcome.failure).toBeUndefined()
      expect(outcome.result.summary.failed).toBe(0)
      expect(outcome.result.cleanup?.openLedger).toBeUndefined()
      expect(outcome.runs).toBe(15)
    },
    300_000,
  )

  it('sends only GET and HEAD under --read-only', async () => {
    const outcome = await fuzz({ runs: 15, readOnly: true })
    expect(outcome.failure).toBeUndefined()
    expect(outcome.result.cleanup).toBeUndefined()
  }, 120_000)
})
