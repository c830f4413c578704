// Builds the survey's results in the shape every reporter already reads (src/model/result.ts):
// each check class is one scenario, each judged read one step, each comparison one assertion.
import type { SourceRef } from '../../model/diagnostic.js'
import type { AssertionResult, ScenarioResult, StepResult } from '../../model/result.js'
import { recordedResponseOf, type SurveyExchange } from './survey-exchange.js'

/** Where survey results say they come from: no YAML line, the check's own module. */
export function surveySource(check: string): SourceRef {
  return { file: `src/spec/survey/checks/${check}.ts`, line: 1, column: 1 }
}

export interface Comparison {
  readonly ok: boolean
  readonly rule: string
  /** What was checked, e.g. `headers.content-length` or `items[*].uri`. */
  readonly target: string
  readonly matcher: string
  readonly expected?: unknown
  readonly actual?: unknown
  /** Says what a conforming server does, and what this one did. */
  readonly message: string
  /** A note that does not fail the run (something the spec leaves to the account, not the server). */
  readonly warning?: boolean
}

/** One judged read (or several reads judged together). */
export class SurveyStep {
  private readonly assertions: AssertionResult[] = []
  private exchange: SurveyExchange | undefined
  private skipReason: string | undefined
  private readonly started = performance.now()

  constructor(
    readonly name: string,
    private readonly at: SourceRef,
    private readonly rules: readonly string[],
  ) {}

  /** The exchange the step shows as its evidence (the last one attached). */
  show(exchange: SurveyExchange): SurveyExchange {
    this.exchange = exchange
    return exchange
  }

  check(comparison: Comparison): boolean {
    const { ok, rule, target, matcher, message } = comparison
    this.assertions.push({
      ok,
      severity: comparison.warning ? 'warning' : 'failure',
      rules: [rule],
      target,
      matcher,
      ...('expected' in comparison ? { expected: comparison.expected } : {}),
      ...('actual' in comparison ? { actual: comparison.actual } : {}),
      message,
      at: this.at,
    })
    return ok
  }

  /** Not judged: the server's own answer leaves nothing to judge here (the reason says which answer). */
  skip(reason: string): void {
    this.skipReason = reason
  }

  get failed(): boolean {
    return this.assertions.some((assertion) => !assertion.ok && assertion.severity === 'failure')
  }

  result(): StepResult {
    const exchange = this.exchange
    // A server that stayed busy (busy-retry.ts) leaves the step not judged, as in a scenario: §8 sets no rate limit.
    const busy = exchange?.error?.code === 'E_SERVER_BUSY'
    const status = busy
      ? 'blocked'
      : exchange?.error
        ? 'error'
        : this.failed
          ? 'failed'
          : this.skipReason
            ? 'skipped'
            : 'passed'
    const response = exchange ? recordedResponseOf(exchange, this.failed) : undefined
    return {
      name: this.name,
      at: this.at,
      status,
      durationMs: performance.now() - this.started,
      assertions: this.assertions,
      attempts: 1,
      rules: this.rules,
      request: exchange?.request,
      curl: exchange?.curl,
      response,
      ...(exchange?.error ? { error: { ...exchange.error, at: this.at } } : {}),
      ...(busy && exchange?.error ? { block: { reason: exchange.error.message, byRules: [] } } : {}),
      ...(this.skipReason && status === 'skipped' ? { skipReason: this.skipReason } : {}),
    }
  }
}

export interface SurveyScenarioIdentity {
  readonly id: string
  readonly title: string
  readonly rules: readonly string[]
}

/** A check class's scenario; skipped with the reason when it has nothing to judge. */
export function surveyScenario(
  identity: SurveyScenarioIdentity,
  steps: readonly SurveyStep[],
  startedAt: number,
  skipReason?: string,
  at: SourceRef = surveySource(identity.id.replace(/^survey-/, '')),
): ScenarioResult {
  const results = steps.map((step) => step.result())
  const failed = results.some((step) => step.status === 'failed' || step.status === 'error')
  const judged = results.some((step) => step.status === 'passed' || step.status === 'failed' || step.status === 'error')
  const reason =
    skipReason ?? (judged ? undefined : (results.find((step) => step.skipReason)?.skipReason ?? 'nothing to judge'))
  return {
    id: identity.id,
    title: identity.title,
    file: 'survey',
    at,
    rules: identity.rules,
    tags: ['survey', 'read-only'],
    status: failed ? 'failed' : reason !== undefined && !judged ? 'skipped' : 'passed',
    ...(reason !== undefined && !judged && !failed ? { skipReason: reason } : {}),
    durationMs: performance.now() - startedAt,
    warnings: results.flatMap((step) =>
      step.assertions.filter((assertion) => !assertion.ok && assertion.severity === 'warning'),
    ),
    steps: results,
    cleanup: [],
  }
}
