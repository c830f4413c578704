// The permission matrix of suites/permissions/ run for real against the reference server: each cell
// is judged on its own (a failed cell does not hide the next), a cell whose token was not given is
// skipped with the reason while the others still run, and the HTML grid says which cell failed.
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadSuites, type LoadOutcome } from '../../../src/load/load-suites.js'
import type { TokenRole } from '../../../src/model/scenario.js'
import type { RunResult, ScenarioResult } from '../../../src/model/result.js'
import { buildPermissionGrid } from '../../../src/report/html/permission-grid.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { demoTokensFor, ranResult, runLoaded, targetOf } from '../../helpers/run-fixture.js'

const MATRIX = fileURLToPath(new URL('../../../suites/permissions/permission-matrix.yaml', import.meta.url))

let loaded: LoadOutcome
let server: RunningReferenceServer | undefined
beforeAll(async () => {
  loaded = await loadSuites([MATRIX])
})
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function runMatrix(options: { mutant?: string; roles?: readonly TokenRole[] } = {}): Promise<RunResult> {
  server = await startReferenceServer({
    ...(options.mutant ? { mutant: options.mutant } : {}),
    onInternalError: () => undefined,
  })
  const tokens = demoTokensFor(server.tokens, options.roles)
  return ranResult(await runLoaded(loaded, targetOf(server.url, tokens, 'reference')))
}

function scenario(result: RunResult, id: string): ScenarioResult {
  const found = result.scenarios.find((candidate) => candidate.id === id)
  if (!found) throw new Error(`no scenario ${id}`)
  return found
}

function gridRow(result: RunResult, route: string): Record<string, string> {
  const row = buildPermissionGrid(result.scenarios)?.rows.find((candidate) => candidate.route === route)
  return Object.fromEntries(row?.cells.map((cell) => [cell.credential, cell.status]) ?? [])
}

describe('the permission matrix against the reference server', () => {
  it('loads into one scenario per route, and every route passes with every token given', async () => {
    expect(loaded.diagnostics).toEqual([])
    const result = await runMatrix()
    expect(result.scenarios.map((s) => `${s.id} ${s.status}`)).toEqual(loaded.scenarios.map((s) => `${s.id} passed`))
    expect(result.scenarios).toHaveLength(9)
    expect(gridRow(result, 'GET /user')).toEqual({
      none: 'passed',
      invalid: 'passed',
      'revoked-token': 'passed',
      'revoked-delete-token': 'passed',
      'limited-token': 'open',
      'other-token': 'open',
    })
  })

  it('skips only the cells whose token was not given, with the option to give it, and still judges the others', async () => {
    const result = await runMatrix({ roles: ['token'] })
    const edit = scenario(result, 'permission-matrix-edit-activity')
    expect(edit.status).toBe('passed')
    expect(gridRow(result, 'PUT /fitnessActivities/<id>')).toEqual({
      none: 'passed',
      invalid: 'passed',
      'revoked-token': 'skipped',
      'revoked-delete-token': 'skipped',
      'limited-token': 'skipped',
      'other-token': 'skipped',
    })
    const skippedStep = edit.steps.find((step) => step.cell?.credential === 'limited-token')
    expect(skippedStep?.skipReason).toBe('needs --limited-token (or FITCONFORM_LIMITED_TOKEN)')
    expect(skippedStep?.request).toBeUndefined()
  })

  it('blames the one cell a mutant breaks, and the cells after it still run', async () => {
    const result = await runMatrix({ mutant: 'limited-token-edits-activity' })
    expect(result.scenarios.filter((s) => s.status === 'failed').map((s) => s.id)).toEqual([
      'permission-matrix-edit-activity',
    ])
    expect(gridRow(result, 'PUT /fitnessActivities/<id>')).toEqual({
      none: 'passed',
      invalid: 'passed',
      'revoked-token': 'passed',
      'revoked-delete-token': 'passed',
      'limited-token': 'failed',
      'other-token': 'passed',
    })
    const failedRules = scenario(result, 'permission-matrix-edit-activity').steps.flatMap((step) =>
      step.assertions.filter((a) => !a.ok).flatMap((a) => a.rules),
    )
    expect(new Set(failedRules)).toEqual(new Set(['ERROR-403-INSUFFICIENT']))
  })

  it("judges the reason of a 403 on the main user's activity", async () => {
    const result = await runMatrix({ mutant: 'revoked-delete-health-false-on-edit' })
    expect(gridRow(result, 'PUT /fitnessActivities/<id>')['revoked-delete-token']).toBe('failed')
    const step = scenario(result, 'permission-matrix-edit-activity').steps.find(
      (s) => s.cell?.credential === 'revoked-delete-token' && s.request?.method === 'PUT',
    )
    expect(step?.assertions.filter((a) => !a.ok).map((a) => a.target)).toEqual(['body.delete_health | bool'])
  })

  it("asks no reason of a refusal other than 403 there: the revoked token may be another user's", async () => {
    const result = await runMatrix({ mutant: 'revoked-answers-401' })
    expect(gridRow(result, 'PUT /fitnessActivities/<id>')['revoked-token']).toBe('passed')
    expect(gridRow(result, 'GET /user')['revoked-token']).toBe('failed')
    const step = scenario(result, 'permission-matrix-edit-activity').steps.find(
      (s) => s.cell?.credential === 'revoked-token' && s.request?.method === 'PUT',
    )
    expect(step?.response?.status).toBe(401)
    expect(step?.assertions.find((a) => a.target === 'body.reason')?.message).toBe(
      'body.reason: not judged, as status is not equal to 403',
    )
  })
})
