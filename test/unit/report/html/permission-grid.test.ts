import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ScenarioResult, StepResult } from '../../../../src/model/result.js'
import type { MatrixCell } from '../../../../src/model/scenario.js'
import { findTemplate, renderHtml } from '../../../../src/report/html/html-reporter.js'
import { buildPermissionGrid } from '../../../../src/report/html/permission-grid.js'
import { reported } from '../../../fixtures/report/build-result.js'

const at = { file: 'suites/permissions/permission-matrix.yaml', line: 1, column: 1 }
const route = 'PUT /fitnessActivities/<id>'
const cells: MatrixCell[] = [
  { route, credential: 'none' },
  { route, credential: 'limited-token' },
  { route, credential: 'other-token', open: 'their own data' },
]

function step(cell: MatrixCell | undefined, status: StepResult['status'], extra: Partial<StepResult> = {}): StepResult {
  return {
    name: `step of ${cell?.credential ?? 'setup'}`,
    at,
    status,
    durationMs: 1,
    assertions: [],
    attempts: 1,
    ...(cell ? { cell } : {}),
    ...extra,
  }
}

function row(status: ScenarioResult['status'], steps: StepResult[], skipReason?: string): ScenarioResult {
  return {
    id: 'permission-matrix-edit-activity',
    title: 't',
    file: at.file,
    at,
    rules: [],
    tags: [],
    status,
    durationMs: 1,
    warnings: [],
    steps,
    cleanup: [],
    matrixRow: { route, cells },
    ...(skipReason ? { skipReason } : {}),
  }
}

const statuses = (scenario: ScenarioResult) =>
  buildPermissionGrid([scenario])?.rows[0]?.cells.map((cell) => `${cell.credential}: ${cell.status}`)

describe('buildPermissionGrid', () => {
  it('is absent when the run held no matrix row', () => {
    expect(buildPermissionGrid([{ ...row('passed', []), matrixRow: undefined }])).toBeUndefined()
  })

  it('marks a cell failed when any of its steps failed, and says which check and what came back', () => {
    const failed = step(cells[1], 'failed', {
      response: { status: 200, headers: {}, bodyBytes: 0 },
      assertions: [
        {
          ok: false,
          severity: 'failure',
          rules: ['ERROR-403-INSUFFICIENT'],
          target: 'status',
          matcher: 'notStatusClass',
          message: 'status: expected not 2xx, got 200',
        },
      ],
    })
    const grid = buildPermissionGrid([row('failed', [step(cells[0], 'passed'), step(cells[1], 'passed'), failed])])
    expect(grid?.columns).toEqual(['none', 'limited-token', 'other-token'])
    expect(grid?.rows[0]?.cells.map((cell) => cell.status)).toEqual(['passed', 'failed', 'open'])
    expect(grid?.rows[0]?.cells[1]?.detail).toBe(
      'passed step of limited-token\nfailed step of limited-token (answered 200): status: expected not 2xx, got 200',
    )
    expect(grid?.rows[0]?.cells[2]?.detail).toBe('not judged: their own data')
  })

  it("shows cells behind a failed setup step as blocked, and a skipped scenario's cells as skipped with its reason", () => {
    expect(statuses(row('failed', [step(undefined, 'failed')]))).toEqual([
      'none: blocked',
      'limited-token: blocked',
      'other-token: open',
    ])
    const skipped = buildPermissionGrid([row('skipped', [], 'changes data, and --read-only is set')])?.rows[0]?.cells[0]
    expect(skipped).toEqual({ credential: 'none', status: 'skipped', detail: 'changes data, and --read-only is set' })
  })

  it('shows a cell whose token was not given as skipped, with the reason', () => {
    const grid = buildPermissionGrid([
      row('passed', [step(cells[0], 'passed'), step(cells[1], 'skipped', { skipReason: 'needs --limited-token' })]),
    ])
    expect(grid?.rows[0]?.cells[1]).toEqual({
      credential: 'limited-token',
      status: 'skipped',
      detail: 'skipped step of limited-token: needs --limited-token',
    })
  })
})

describe('the HTML report', () => {
  it('embeds the grid in its data, for the page to draw in its own section', () => {
    const scenario = row('passed', [step(cells[0], 'passed'), step(cells[1], 'passed')])
    const result = {
      schemaVersion: 1,
      tool: { name: 'fitconform' as const, version: '0' },
      startedAt: '2026-11-24T00:00:00Z',
      durationMs: 1,
      target: 'http://127.0.0.1:1',
      strict: false,
      summary: { total: 1, passed: 1, failed: 0, skipped: 0, warnings: 0 },
      scenarios: [scenario],
      diagnostics: [],
    }
    const html = renderHtml(readFileSync(findTemplate(), 'utf8'), reported(result), new Map())
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!,
    ) as { permissionGrid?: unknown }
    expect(data.permissionGrid).toEqual(buildPermissionGrid([scenario]))
    expect(html).toContain('<section id="permission-grid-section" class="hidden">')
    expect(html).toContain('renderPermissionGrid()')
  })
})
