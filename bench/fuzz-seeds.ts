/**
 * The fuzz proof across consecutive seeds: `fitconform fuzz` must pass every conforming mode of the
 * reference server for seeds S … S+N−1. One seed's sequences (`--runs`) meet a generated `${` or a
 * body the template language misreads only now and then; many consecutive seeds show that no such
 * false failure hides. Too slow for `npm test`, so a job of its own:
 *
 *   npm run build && node dist/bench/fuzz-seeds.js [--from 1] [--seeds 100] [--runs 10] [--modes a,b]
 *
 * Prints one line per failing seed (its reproduction file and the first unjudged or failed step's
 * message), each mode's time and the total; exits 1 on a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runFuzz } from '../src/fuzz/run-fuzz.js'
import { loadRules } from '../src/load/load-rules.js'
import { serverModes, startReferenceServer, type ServerMode } from '../reference-server/index.js'
import type { ScenarioResult } from '../src/model/result.js'

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: '1' },
    seeds: { type: 'string', default: '100' },
    runs: { type: 'string', default: '10' },
    modes: { type: 'string', default: serverModes.join(',') },
  },
})
const MODES = values.modes.split(',').map((mode) => {
  if (!(serverModes as readonly string[]).includes(mode))
    throw new Error(`--modes: unknown mode ${mode} (${serverModes.join(', ')})`)
  return mode as ServerMode
})
const from = Number(values.from)
const seeds = Number(values.seeds)
const runs = Number(values.runs)
const { rules } = await loadRules()
const outputDir = mkdtempSync(join(tmpdir(), 'fitconform-fuzz-seeds-'))
const started = performance.now()
let failures = 0

await Promise.all(
  MODES.map(async (mode) => {
    const server = await startReferenceServer({ mode, onInternalError: () => undefined })
    try {
      for (let seed = from; seed < from + seeds; seed++) {
        const outcome = await runFuzz({
          target: { baseUrl: new URL(server.url), tokens: { token: server.tokens.token }, label: mode },
          rules,
          seed,
          runs,
          readOnly: false,
          outputDir: join(outputDir, mode),
          timeoutMs: 10_000,
          insecure: false,
          configValues: {},
          shrinkBudgetMs: 15_000,
        })
        if (outcome.kind === 'unreachable')
          throw new Error(`${mode}: the reference server did not answer: ${outcome.diagnostic.message}`)
        if (outcome.failure) {
          failures++
          console.log(
            `${mode} seed ${seed}: FAILED ${outcome.failure.rule}, ${outcome.failure.file}: ${firstProblem(outcome.result.scenarios[0])}`,
          )
        }
      }
    } finally {
      await server.close()
      console.log(`${mode}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
    }
  }),
)
const seconds = (performance.now() - started) / 1000
console.log(
  `fuzz-seeds: ${MODES.length} modes × seeds ${from}–${from + seeds - 1} × ${runs} sequences: ${failures} failure(s) in ${seconds.toFixed(1)} s`,
)
if (failures === 0) rmSync(outputDir, { recursive: true, force: true })
process.exitCode = failures === 0 ? 0 : 1

/** The first step that failed or could not be judged, with its message: enough to tell a timeout from a model fault. */
function firstProblem(result: ScenarioResult | undefined): string {
  for (const step of result?.steps ?? []) {
    if (step.status === 'error')
      return `step "${step.name}" not judged: ${step.error?.code ?? ''} ${step.error?.message ?? ''}`
    const failed = step.assertions.find((assertion) => !assertion.ok && assertion.severity === 'failure')
    if (failed) return `step "${step.name}": ${failed.message}`
  }
  return 'no failed step recorded'
}
