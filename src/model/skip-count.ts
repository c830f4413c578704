import type { ScenarioResult, SkipCount } from './result.js'

/**
 * What a run skipped: whole scenarios, and permission-matrix cells whose token was not given (each
 * skipped alone, inside a scenario that runs). A cell the spec leaves open is not a skip: it is never sent.
 */
export function countSkips(scenarios: readonly ScenarioResult[]): SkipCount {
  const cells = new Set<string>()
  for (const scenario of scenarios) {
    for (const step of scenario.steps) {
      if (step.status === 'skipped' && step.cell && step.cell.open === undefined)
        cells.add(`${scenario.id}\u0000${step.cell.route}\u0000${step.cell.credential}`)
    }
  }
  return { scenarios: scenarios.filter((scenario) => scenario.status === 'skipped').length, cells: cells.size }
}
