import type { Diagnostic } from '../model/diagnostic.js'
import type { ReportedRunResult, ReportedScenarioResult } from '../model/reported-result.js'
import type { StepResult } from '../model/result.js'
import type { Reporter, RunPlanView, ScenarioView } from '../model/reporter.js'

type Hook = Exclude<keyof Reporter, 'printsToStdout' | 'outputFiles'>

export type Multiplexer = Required<Omit<Reporter, 'outputFiles'>> & {
  /** E_REPORTER diagnostics of the reporters that threw; the CLI exits non-zero when there are any. */
  errors(): Diagnostic[]
  /** Every file the reporters wrote, in reporter order. */
  writtenFiles(): string[]
}

/**
 * Calls the reporters in order, each hook awaited before the next reporter's. Why a throwing
 * reporter does not stop the run (Playwright's Multiplexer): a broken HTML template must not cost the
 * JUnit file CI gates on. Its error becomes an E_REPORTER diagnostic that the other reporters
 * receive, that `onRunEnd` adds to the result's diagnostics, and that `errors()` returns.
 */
export function createMultiplexer(reporters: readonly Reporter[]): Multiplexer {
  const errors: Diagnostic[] = []

  /** A reporter's hook; a promise only when the hook returned one, so that sync reporters cost no tick per event. */
  const call = (index: number, hook: Hook, invoke: (reporter: Reporter) => unknown): Promise<void> | undefined => {
    const reporter = reporters[index]
    if (reporter?.[hook] === undefined) return undefined
    const failed = (error: unknown): void => {
      errors.push(reporterError(reporter, index, hook, error))
    }
    try {
      const returned = invoke(reporter)
      return isPromiseLike(returned) ? Promise.resolve(returned).then(() => undefined, failed) : undefined
    } catch (error) {
      failed(error)
      return undefined
    }
  }

  const dispatch = async (hook: Hook, invoke: (reporter: Reporter) => unknown): Promise<void> => {
    for (let index = 0; index < reporters.length; index++) {
      const before = errors.length
      const pending = call(index, hook, invoke)
      if (pending) await pending
      const failure = errors[before]
      if (failure === undefined) continue
      // Tell the others; a reporter failing in onDiagnostic is recorded but not reported again.
      for (let other = 0; other < reporters.length; other++) {
        if (other !== index) await call(other, 'onDiagnostic', (reporter) => reporter.onDiagnostic?.(failure))
      }
    }
  }

  return {
    errors: () => [...errors],
    writtenFiles: () => reporters.flatMap((reporter) => [...(reporter.outputFiles?.() ?? [])]),
    printsToStdout: () => reporters.some((reporter) => reporter.printsToStdout?.() === true),
    onRunStart: (plan: RunPlanView) => dispatch('onRunStart', (reporter) => reporter.onRunStart?.(plan)),
    onScenarioStart: (scenario: ScenarioView) =>
      dispatch('onScenarioStart', (reporter) => reporter.onScenarioStart?.(scenario)),
    onStepEnd: (step: StepResult, scenario: ScenarioView) =>
      dispatch('onStepEnd', (reporter) => reporter.onStepEnd?.(step, scenario)),
    onScenarioEnd: (result: ReportedScenarioResult) =>
      dispatch('onScenarioEnd', (reporter) => reporter.onScenarioEnd?.(result)),
    onDiagnostic: (diagnostic: Diagnostic) =>
      dispatch('onDiagnostic', (reporter) => reporter.onDiagnostic?.(diagnostic)),
    onRunEnd: (result: ReportedRunResult, plan: RunPlanView) => {
      const withErrors = errors.length === 0 ? result : { ...result, diagnostics: [...result.diagnostics, ...errors] }
      return dispatch('onRunEnd', (reporter) => reporter.onRunEnd?.(withErrors, plan))
    },
  }
}

function reporterError(reporter: Reporter, index: number, hook: Hook, error: unknown): Diagnostic {
  const message = error instanceof Error ? error.message : String(error)
  return {
    code: 'E_REPORTER',
    kind: 'internal',
    message: `reporter ${reporterName(reporter, index)} failed in ${hook}: ${message}`,
  }
}

/** The `name` our factories set, else the position in --reporter. */
function reporterName(reporter: Reporter, index: number): string {
  const name = (reporter as { readonly name?: unknown }).name
  return typeof name === 'string' && name !== '' ? `"${name}"` : `#${index + 1}`
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
