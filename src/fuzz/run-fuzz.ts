// `fitconform fuzz`: fast-check generates command sequences, the model turns each into a scenario of
// the suite's own format, the suite's executor runs it (ledger, cleanup and all), and a failing
// sequence is shrunk and written to `<output-dir>/fuzz/<rule>-<seed>.yaml`. The reproduction file is
// loaded and run once more, so the report shows it like any suite failure, with its file and line.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import type { Diagnostic } from '../model/diagnostic.js'
import { RESULT_SCHEMA_VERSION, type RunResult, type ScenarioResult } from '../model/result.js'
import type { Rule, Scenario } from '../model/scenario.js'
import { runScenario } from '../execute/run-scenario.js'
import { loadScenarioFile } from '../load/load-suites.js'
import { packageVersion } from '../shared/package-root.js'
import { fuzzCommands } from '../spec/fuzz/fuzz-commands.js'
import { createModel } from '../spec/fuzz/fuzz-model.js'
import { openRunSession, type SessionSettings } from '../session/run-session.js'
import { createDraft, draftToYaml, loadDraftText, type ScenarioDraft } from './scenario-draft.js'

export interface FuzzSettings extends SessionSettings {
  readonly rules: readonly Rule[]
  readonly seed: number
  /** Sequences to try (default 100), unless `timeMs` is given. */
  readonly runs?: number
  readonly timeMs?: number
  readonly readOnly: boolean
  /** Where `fuzz/<rule>-<seed>.yaml` goes. */
  readonly outputDir: string
  /** Flags to repeat in the replay command (`--base-url …`), never a token. */
  readonly replayFlags?: string
  readonly onProgress?: (progress: FuzzProgress) => void
  /** How long shrinking may try new candidates after the first failure (default 60 s). */
  readonly shrinkBudgetMs?: number
}

export interface FuzzProgress {
  readonly runs: number
  readonly failures: number
  readonly shrinking: boolean
  /** Milliseconds left under --time; undefined under --runs. */
  readonly msLeft?: number
}

export interface FuzzFailure {
  /** Rule id of the first failed check (`FUZZ-ERROR` when a step could not be judged). */
  readonly rule: string
  readonly file: string
  readonly steps: number
  /** `fitconform run <file>`: replays the shrunk sequence. */
  readonly replay: string
  /** `fitconform fuzz --seed …`: runs the same generation again. */
  readonly refuzz: string
  /** Whether the written file failed again when it was run from disk. */
  readonly reproduced: boolean
  /** When the server stopped answering: the last request it met (`PUT http://…`), which the reproduction ends with. */
  readonly stoppedAfter?: string
}

export type FuzzOutcome =
  | { readonly kind: 'unreachable'; readonly diagnostic: Diagnostic }
  | {
      readonly kind: 'ran'
      readonly result: RunResult
      readonly runs: number
      readonly failure?: FuzzFailure & { readonly foundAt: number }
    }

const DEFAULT_RUNS = 100
/** Sequences per seed under --time. */
const TIME_BATCH = 10
/** After the first failure, shrinking stops trying new candidates after this long. */
const SHRINK_BUDGET_MS = 60_000

export async function runFuzz(settings: FuzzSettings): Promise<FuzzOutcome> {
  const startedAt = new Date()
  // The fuzzer writes; it runs with neither busy retries nor a polling budget, as its model judges each answer.
  const opened = await openRunSession(settings, { startedAt, writes: true })
  if ('unreachable' in opened) return { kind: 'unreachable', diagnostic: opened.unreachable }
  const { session } = opened
  const knownRules = new Set(settings.rules.filter((rule) => !rule.retired).map((rule) => rule.id))
  const caseFile = join(settings.outputDir, 'fuzz', 'sequence.yaml')
  let runs = 0
  let failures = 0
  let wrote = false
  let shrinkDeadline: number | undefined
  let lastFailing: Failing | undefined
  /** The sequence that failed first; the runs after it are shrinking candidates. */
  let foundAt = 0
  let previousRun: { draft: ScenarioDraft; result: ScenarioResult } | undefined
  const deadline = settings.timeMs !== undefined ? startedAt.getTime() + settings.timeMs : undefined
  const progress = (): void =>
    settings.onProgress?.({
      runs,
      failures,
      shrinking: shrinkDeadline !== undefined,
      ...(deadline !== undefined ? { msLeft: Math.max(0, deadline - Date.now()) } : {}),
    })

  const property = fc.asyncProperty(fuzzCommands(settings.readOnly), async (commands) => {
    if (session.context.interrupted.aborted) return true
    // Past the shrinking budget every candidate "passes" at once, so fast-check settles on the smallest failure so far.
    if (shrinkDeadline !== undefined && Date.now() > shrinkDeadline) return true
    const draft = createDraft()
    fc.modelRun(() => ({ model: createModel(settings.readOnly), real: draft }), commands)
    const loaded = loadDraftText(
      caseFile,
      draftToYaml(draft, { id: 'fuzz-sequence', title: 'a generated sequence', header: [] }),
      knownRules,
    )
    if (!loaded.scenario)
      throw new Error(
        `the fuzzer wrote a scenario the loader refuses: ${loaded.diagnostics.map((d) => d.message).join('; ')}`,
      )
    const result = await runScenario(loaded.scenario, session.context)
    runs++
    wrote ||= loaded.scenario.writes
    // While shrinking, a candidate is the same failure only when it fails the same way: one that fails
    // otherwise (a request timed out under load, a step left unjudged) would swap the reproduction for
    // another fault, which then does not fail again when replayed.
    const failed =
      result.status === 'failed' && (lastFailing === undefined || failureKey(result) === failureKey(lastFailing.result))
    if (failed && foundAt === 0) foundAt = runs
    const stopped = failed && lastFailing === undefined ? stoppedAnswering({ draft, result }, previousRun) : undefined
    previousRun = { draft, result }
    if (stopped) {
      // Shrinking a server that no longer answers finds any sequence at all: keep what preceded the silence.
      failures++
      lastFailing = stopped
      shrinkDeadline = Date.now()
    } else if (failed && !lastFailing?.stoppedAfter) {
      failures++
      lastFailing = { draft, result }
      shrinkDeadline ??= Date.now() + (settings.shrinkBudgetMs ?? SHRINK_BUDGET_MS)
    }
    progress()
    return !failed
  })

  try {
    let generation = { seed: settings.seed, runs: settings.runs ?? DEFAULT_RUNS }
    if (deadline === undefined) {
      await fc.check(property, { seed: generation.seed, numRuns: generation.runs })
    } else {
      // Under --time: batches of seeds S, S+1, … rather than fast-check's interruptAfterTimeLimit, which
      // abandons the sequence in flight (its requests and its cleanup would outlive the run).
      for (let batch = 0; !lastFailing && Date.now() < deadline && !session.context.interrupted.aborted; batch++) {
        generation = { seed: (settings.seed + batch) % 2 ** 31, runs: TIME_BATCH }
        await fc.check(property, { seed: generation.seed, numRuns: generation.runs })
      }
    }
    const failure = lastFailing
      ? await writeReproduction(lastFailing, { ...settings, ...generation }, session.context, knownRules)
      : undefined
    // Only creates can leave something behind whose Location never reached us: the sweep runs when the fuzzer wrote.
    const cleanup = await session.finish({ wrote, posted: wrote })
    const scenarios = failure
      ? [failure.result]
      : [summaryResult(runs, settings.seed, Date.now() - startedAt.getTime())]
    const result: RunResult = {
      schemaVersion: RESULT_SCHEMA_VERSION,
      tool: { name: 'fitconform', version: packageVersion() },
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      target: settings.target.label,
      strict: false,
      summary: {
        total: scenarios.length,
        passed: scenarios.filter((s) => s.status === 'passed').length,
        failed: scenarios.filter((s) => s.status === 'failed').length,
        skipped: 0,
        warnings: scenarios.reduce((sum, s) => sum + s.warnings.length, 0),
      },
      scenarios,
      diagnostics: [...(failure?.diagnostics ?? []), ...cleanup.problems],
      cleanup: cleanup.summary,
    }
    return {
      kind: 'ran',
      result: session.context.redact(result),
      runs,
      ...(failure ? { failure: { ...failure.failure, foundAt } } : {}),
    }
  } finally {
    await session.close()
  }
}

interface Failing {
  readonly draft: ScenarioDraft
  readonly result: ScenarioResult
  readonly stoppedAfter?: string
}

/** Transport failures that mean the server no longer answers (not a slow body or a size cap). */
const NO_ANSWER = new Set(['E_CONNECT', 'E_TIMEOUT', 'E_TRANSPORT'])

/**
 * A sequence whose first unjudged step found the server silent. The reproduction ends with the last
 * request the server met: that step when it was sent and broke off or timed out; when the connection
 * was refused, the step before in this sequence or the last step of the previous sequence.
 */
function stoppedAnswering(
  current: { draft: ScenarioDraft; result: ScenarioResult },
  previous: { draft: ScenarioDraft; result: ScenarioResult } | undefined,
): Failing | undefined {
  const silent = current.result.steps.findIndex(
    (step) => step.status === 'error' && step.error !== undefined && NO_ANSWER.has(step.error.code),
  )
  if (silent < 0 || current.result.steps.slice(0, silent).some((step) => step.status === 'failed')) return undefined
  const sent = (run: { result: ScenarioResult }, before: number) =>
    run.result.steps
      .slice(0, before)
      .filter((step) => step.request !== undefined)
      .at(-1)?.request
  // Sent, and the connection broke or nothing came back: this request is the last the server met.
  const broke = current.result.steps[silent]
  if (broke?.error?.code !== 'E_CONNECT' && broke?.request) {
    return {
      draft: { steps: current.draft.steps.slice(0, silent + 1), cleanup: current.draft.cleanup },
      result: current.result,
      stoppedAfter: `${broke.request.method} ${broke.request.url}`,
    }
  }
  // Refused: the server was gone already; the request before is the last it met.
  const within = sent(current, silent)
  if (within) {
    const draft = { steps: current.draft.steps.slice(0, silent), cleanup: current.draft.cleanup }
    return { draft, result: current.result, stoppedAfter: `${within.method} ${within.url}` }
  }
  const last = previous ? sent(previous, previous.result.steps.length) : undefined
  if (!previous || !last) return undefined
  return { draft: previous.draft, result: current.result, stoppedAfter: `${last.method} ${last.url}` }
}

/** Writes the shrunk sequence as a scenario file, then loads and runs that file: the report shows what a replay shows. */
async function writeReproduction(
  failing: Failing,
  settings: FuzzSettings & { readonly seed: number; readonly runs: number },
  context: Parameters<typeof runScenario>[1],
  knownRules: ReadonlySet<string>,
): Promise<{ failure: FuzzFailure; result: ScenarioResult; diagnostics: Diagnostic[] }> {
  const rule = failing.stoppedAfter ? 'FUZZ-NO-ANSWER' : firstFailedRule(failing.result)
  const folder = join(settings.outputDir, 'fuzz')
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `${rule}-${settings.seed}.yaml`)
  const shown = relative(process.cwd(), file) || file
  const replayFlags = settings.replayFlags ? ` ${settings.replayFlags}` : ''
  const replay = `npx fitconform run ${shown}${replayFlags}`
  const refuzz = `npx fitconform fuzz --seed ${settings.seed} --runs ${settings.runs}${settings.readOnly ? ' --read-only' : ''}${replayFlags}`
  const text = draftToYaml(failing.draft, {
    id: `fuzz-${rule.toLowerCase()}-${settings.seed}`,
    title: `A sequence found by fitconform fuzz (seed ${settings.seed}) and shrunk, that fails ${rule}`,
    header: [
      failing.stoppedAfter
        ? `Written by fitconform fuzz: the server stopped answering; the last request it met is the last step here: ${failing.stoppedAfter}.`
        : `Written by fitconform fuzz: the shortest sequence it found that fails ${rule}.`,
      `Replay it:            ${replay}`,
      `Fuzz again the same:  ${refuzz}`,
      'Dates are in September of ${run.farYear} (docs/fuzzing.md); everything created is deleted at the end.',
    ],
  })
  writeFileSync(file, text)
  const loaded = await loadScenarioFile(file, knownRules)
  const scenario: Scenario | undefined = loaded.scenarios[0]
  const result = scenario ? await runScenario(scenario, context) : failing.result
  const reproduced = result.status === 'failed'
  const diagnostics: Diagnostic[] = [...loaded.diagnostics]
  if (failing.stoppedAfter)
    diagnostics.push({
      code: 'E_CONNECT',
      kind: 'error',
      message: `the server stopped answering; the last request it met was ${failing.stoppedAfter}, and ${shown} ends with it`,
      hint: `restart the server, then replay: ${replay}`,
    })
  if (!reproduced)
    diagnostics.push({
      code: 'E_INTERNAL',
      kind: 'error',
      message: `the shrunk sequence in ${shown} did not fail again when run from the file: the failure depends on timing or on the server's state`,
      hint: `try ${replay} a few times`,
    })
  return {
    failure: {
      rule,
      file,
      steps: failing.draft.steps.length,
      replay,
      refuzz,
      reproduced,
      stoppedAfter: failing.stoppedAfter,
    },
    result: reproduced ? result : failing.result,
    diagnostics,
  }
}

/** What makes two failures the same while shrinking: the first failed check's rule, or the code of the first step left unjudged. */
function failureKey(result: ScenarioResult): string {
  for (const step of result.steps) {
    const failed = step.assertions.find((assertion) => !assertion.ok && assertion.severity === 'failure')
    if (failed) return failed.rules[0] ?? 'FUZZ-FAILURE'
    if (step.status === 'error') return `FUZZ-ERROR ${step.error?.code ?? ''}`
  }
  return 'FUZZ-FAILURE'
}

function firstFailedRule(result: ScenarioResult): string {
  return failureKey(result).split(' ')[0]!
}

/** A passing fuzz run as one passed "scenario", so every reporter has something to count. */
function summaryResult(runs: number, seed: number, durationMs: number): ScenarioResult {
  const at = { file: 'fuzz', line: 1, column: 1 }
  return {
    id: `fuzz-seed-${seed}`,
    title: `${runs} generated ${runs === 1 ? 'sequence' : 'sequences'} (seed ${seed}) held every checked rule`,
    file: 'fuzz',
    at,
    rules: [],
    tags: ['fuzz'],
    status: 'passed',
    durationMs,
    warnings: [],
    steps: [],
    cleanup: [],
  }
}
