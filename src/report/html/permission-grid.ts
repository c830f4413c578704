import type { AuthChoice, MatrixCell } from '../../model/scenario.js'
import type { ScenarioResult, StepResult } from '../../model/result.js'

/*
 * The permission matrix as the HTML report draws it: one row per route, one column per credential,
 * each cell the verdict of its steps. Built from the results alone (ScenarioResult.matrixRow names
 * every cell, StepResult.cell ties each step to one), so cells that never ran still show.
 */

/** `blocked`: never sent, because a step before the cell (creating the activity it acts on) did not pass. */
export type GridCellStatus = 'passed' | 'failed' | 'open' | 'skipped' | 'blocked'

export interface PermissionGrid {
  readonly columns: readonly AuthChoice[]
  readonly rows: readonly PermissionGridRow[]
}

export interface PermissionGridRow {
  readonly route: string
  readonly scenarioId: string
  readonly cells: readonly PermissionGridCell[]
}

export interface PermissionGridCell {
  readonly credential: AuthChoice
  readonly status: GridCellStatus
  /** One line a step: what was tried and how it went; the open or skip reason for cells not sent. */
  readonly detail: string
}

/** The grid of every scenario the matrix generated, or undefined when the run had none. */
export function buildPermissionGrid(scenarios: readonly ScenarioResult[]): PermissionGrid | undefined {
  const matrixScenarios = scenarios.filter((scenario) => scenario.matrixRow !== undefined)
  if (matrixScenarios.length === 0) return undefined
  const columns: AuthChoice[] = []
  for (const scenario of matrixScenarios) {
    for (const cell of scenario.matrixRow!.cells) if (!columns.includes(cell.credential)) columns.push(cell.credential)
  }
  const rows = matrixScenarios.map((scenario) => ({
    route: scenario.matrixRow!.route,
    scenarioId: scenario.id,
    cells: columns.map((credential) =>
      gridCell(
        scenario,
        scenario.matrixRow!.cells.find((cell) => cell.credential === credential),
        credential,
      ),
    ),
  }))
  return { columns, rows }
}

function gridCell(scenario: ScenarioResult, cell: MatrixCell | undefined, credential: AuthChoice): PermissionGridCell {
  if (!cell) return { credential, status: 'open', detail: 'this route has no cell for this credential' }
  if (cell.open !== undefined) return { credential, status: 'open', detail: `not judged: ${cell.open}` }
  const steps = scenario.steps.filter(
    (step) => step.cell?.route === cell.route && step.cell.credential === cell.credential,
  )
  if (steps.length === 0) {
    return scenario.status === 'skipped'
      ? { credential, status: 'skipped', detail: scenario.skipReason ?? 'the scenario was skipped' }
      : { credential, status: 'blocked', detail: 'not sent: a step before this cell did not pass' }
  }
  const detail = steps.map(describeStep).join('\n')
  if (steps.some((step) => step.status === 'failed' || step.status === 'error'))
    return { credential, status: 'failed', detail }
  if (steps.some((step) => step.status === 'skipped')) return { credential, status: 'skipped', detail }
  return { credential, status: 'passed', detail }
}

function describeStep(step: StepResult): string {
  const answer = step.response ? ` (answered ${step.response.status})` : ''
  const why = step.skipReason ? `: ${step.skipReason}` : ''
  const failed = step.assertions.find((assertion) => !assertion.ok && assertion.severity === 'failure')
  const problem = failed ? `: ${failed.message}` : step.error ? `: ${step.error.message}` : ''
  return `${step.status} ${step.name}${answer}${why}${problem}`
}
