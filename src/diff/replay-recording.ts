import { join } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary, StepResult } from '../model/result.js'
import { readExchanges, type RecordedExchange } from '../../proxy/reading/read-exchanges.js'
import { recordingFiles } from '../../proxy/recording/exchange-log.js'
import { runConformance } from '../execute/run-conformance.js'
import type { ConformanceTarget } from '../session/run-session.js'
import { createRunValues } from '../execute/run-values.js'
import { maskScenarioPersonalData } from '../execute/finalize/personal-data.js'
import { compareAnswers, type Answer } from './compare-answers.js'
import { classifyStep } from './classify-step.js'
import { answerOf } from './diff-runs.js'
import type { DiffResult, StepDiff } from './diff-result.js'
import { TIME_SCOPE } from '../spec/open-choices.js'
import { planReplay } from './recording-to-scenario.js'
import { redactBothSides, type SharedSettings } from './run-diff.js'
import { sideSummary, summarizeDiff } from './summarize-diff.js'
import { BASE_URL_ROLE, createRoleMap, ownActivityLabel, type CreatedActivity } from './volatile-values.js'

export interface ReplaySettings {
  readonly new: ConformanceTarget
  readonly shared: SharedSettings
  readonly outputDir?: string
}

export type ReplayOutcome =
  | {
      readonly kind: 'diffed'
      readonly result: DiffResult
      readonly warnings: readonly string[]
      readonly cleanup?: CleanupSummary
    }
  | { readonly kind: 'unreachable'; readonly diagnostic: Diagnostic }
  | { readonly kind: 'nothing-to-replay'; readonly reason: string }

const LABEL = ownActivityLabel('recording')

/**
 * Replays a proxy recording against the new server through the normal run path (so its writes pass
 * the executor's safety, cleanup and redaction) and compares each answer with the recorded one.
 */
export async function replayRecording(file: string, settings: ReplaySettings): Promise<ReplayOutcome> {
  const startedAt = new Date()
  const warnings: string[] = []
  const exchanges: RecordedExchange[] = []
  for await (const exchange of readExchanges(recordingFiles(file), (skipped) =>
    warnings.push(`warning: ${skipped.file}:${skipped.line}: line skipped: ${skipped.problem}`),
  ))
    exchanges.push(exchange)
  const plan = planReplay(exchanges, file, { otherToken: Boolean(settings.new.tokens['other-token']) })
  if (plan.scenario.steps.length === 0)
    return {
      kind: 'nothing-to-replay',
      reason: `${file} holds no exchange that can be replayed (${plan.skipped.length} left out, ${warnings.length} unreadable)`,
    }
  const run = createRunValues(startedAt)
  const outcome = await runConformance(
    [plan.scenario],
    [],
    {
      ...settings.shared,
      target: settings.new,
      run,
      ...(settings.outputDir ? { ledgerDir: join(settings.outputDir, 'diff-new') } : {}),
    },
    {},
  )
  if (outcome.kind === 'unreachable') return { kind: 'unreachable', diagnostic: outcome.diagnostic }
  if (outcome.kind === 'nothing-selected')
    return { kind: 'nothing-to-replay', reason: `the replay needs the token role(s) ${plan.roles.join(', ')}` }
  const results = outcome.result.scenarios[0]?.steps ?? []
  const createdNew: CreatedActivity[] = []
  const createdRecorded: CreatedActivity[] = []
  results.forEach((step, index) => {
    const recorded = plan.replayed[index]!.entry.response
    const label = `${LABEL}${index + 1}`
    const newLocation = step.request?.method === 'POST' ? step.response?.headers['location'] : undefined
    const recordedLocation = recorded.headers.find((h) => h.name.toLowerCase() === 'location')?.value
    if (newLocation) createdNew.push({ label, url: newLocation })
    if (recordedLocation && step.request?.method === 'POST') createdRecorded.push({ label, url: recordedLocation })
  })
  const roles = {
    new: createRoleMap(settings.new.baseUrl, createdNew, run.marker),
    reference: createRoleMap(plan.recordedBase, createdRecorded),
  }
  const recordedAnswers = recordedAsRun(
    plan.replayed.map((exchange) => answerOfExchange(exchange, roles.reference)),
    settings.shared.showPersonalData ?? false,
  )
  const steps: StepDiff[] = []
  results.forEach((step, index) => {
    const exchange = plan.replayed[index]!
    if (!step.response) return
    // A body past the run's recording cap is kept cut short: only whole bodies are compared (volatile-values.ts).
    const { body: _cut, ...withoutBody } = recordedAnswers[index]!
    const answerNew = answerOf(step, roles.new, !step.response.truncated)
    const answerRecorded = step.response.truncated ? withoutBody : recordedAnswers[index]!
    const target = roles.reference.text(exchange.entry.request.url).replace(BASE_URL_ROLE, '')
    const conditional = exchange.entry.request.headers.some((h) => h.name.toLowerCase() === 'if-modified-since')
    const raw = compareAnswers(answerNew, answerRecorded, { ownLabel: LABEL, scoped: TIME_SCOPE.test(target) }).filter(
      (d) => !(conditional && isConditionalOutcome(d)),
    )
    const contentType = exchange.entry.request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value
    const context = {
      method: step.request?.method ?? '',
      target,
      ...(contentType ? { contentType } : {}),
      edited: editedBefore(results, index),
      statuses: { new: answerNew.status, reference: answerRecorded.status },
    }
    const differences = classifyStep(raw, { new: [], reference: [] }, context, [])
    if (differences.length > 0)
      steps.push({
        scenario: 'recording',
        step: index + 1,
        name: `${exchange.file}:${exchange.line}`,
        request: `${exchange.entry.request.method} ${target}`,
        differences,
      })
  })
  const result = summarizeDiff({
    mode: 'recording',
    startedAt,
    sides: {
      new: sideSummary(settings.new.label, outcome.result.summary),
      reference: { label: file, passed: 0, failed: 0, skipped: 0 },
    },
    rules: [],
    steps,
    created: { new: createdNew, reference: createdRecorded },
    skipped: plan.skipped,
  })
  return {
    kind: 'diffed',
    result: redactBothSides({ new: settings.new })(result),
    warnings,
    cleanup: outcome.result.cleanup,
  }
}

/**
 * The recorded answers masked as the run masks the new server's (GPS rounded, profile texts cut),
 * unless --show-personal-data: both sides must be seen through the same glass.
 */
function recordedAsRun(answers: readonly Answer[], showPersonalData: boolean): Answer[] {
  if (showPersonalData) return [...answers]
  const steps = answers.map((answer): StepResult => ({
    name: '',
    at: { file: '', line: 0, column: 0 },
    status: 'passed',
    durationMs: 0,
    assertions: [],
    attempts: 1,
    response: { ...answer, bodyBytes: 0 },
  }))
  const masked = maskScenarioPersonalData({
    id: '',
    title: '',
    file: '',
    at: { file: '', line: 0, column: 0 },
    rules: [],
    tags: [],
    status: 'passed',
    durationMs: 0,
    warnings: [],
    steps,
    cleanup: [],
  })
  return masked.steps.map((step) => ({
    status: step.response!.status,
    headers: step.response!.headers,
    body: step.response!.body,
  }))
}

/** 200 against 304: the If-Modified-Since a recording holds is a date of the recorded server's history, not the new one's. */
function isConditionalOutcome(d: { where: string; new?: unknown; reference?: unknown }): boolean {
  return d.where === 'status' && [d.new, d.reference].includes(304) && [d.new, d.reference].includes(200)
}

function editedBefore(results: readonly StepResult[], index: number): Set<'activity' | 'profile'> {
  const edited = new Set<'activity' | 'profile'>()
  for (const step of results.slice(0, index))
    if (step.request?.method === 'PUT') edited.add(step.request.url.includes('/profile') ? 'profile' : 'activity')
  return edited
}

/** The recorded answer as the executor would have read it: headers lower-case and joined, a JSON body parsed. */
function answerOfExchange(exchange: RecordedExchange, roles: ReturnType<typeof createRoleMap>): Answer {
  const { response } = exchange.entry
  const headers: Record<string, string> = {}
  for (const header of response.headers) {
    const name = header.name.toLowerCase()
    headers[name] = roles.text(headers[name] === undefined ? header.value : `${headers[name]}, ${header.value}`)
  }
  const text = response.content.encoding === 'base64' ? undefined : response.content.text
  let body: unknown = text === undefined || text === '' ? undefined : text
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown
    } catch {
      // kept as text
    }
  }
  return { status: response.status, headers, ...(body !== undefined ? { body: roles.json(body) } : {}) }
}
