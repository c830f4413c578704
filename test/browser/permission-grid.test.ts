// The permission-matrix grid of report.html in headless Chromium, from a real run of the matrix
// against a reference-server mutant: a reader sees which cell failed, which are open, and gets from a
// route to its scenario. A screenshot goes to reports/ to look at.
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSuites } from '../../src/load/load-suites.js'
import { createHtmlReporter } from '../../src/report/html/html-reporter.js'
import { startReferenceServer } from '../../reference-server/index.js'
import { planOf } from '../fixtures/report/build-result.js'
import { demoTokensFor, ranResult, runLoaded, targetOf } from '../helpers/run-fixture.js'
import { openReport } from './open-report.js'

const root = path.resolve(import.meta.dirname, '../..')
const outputDir = path.join(root, 'reports', 'browser-test-grid')
const screenshot = path.join(root, 'reports', 'permission-grid.png')

let browser: Browser
let page: Page
let consoleErrors: string[] = []

beforeAll(async () => {
  await mkdir(outputDir, { recursive: true })
  const loaded = await loadSuites([path.join(root, 'suites', 'permissions')])
  const server = await startReferenceServer({
    mutant: 'limited-token-edits-activity',
    onInternalError: () => undefined,
  })
  try {
    // No --revoked-delete-token: that column's judged cells are skipped.
    const tokens = demoTokensFor(server.tokens, ['token', 'other-token', 'revoked-token', 'limited-token'])
    const result = ranResult(await runLoaded(loaded, targetOf(server.url, tokens, 'reference')))
    await createHtmlReporter({ outputDir }).onRunEnd?.(result, planOf(result, loaded.rules))
  } finally {
    await server.close()
  }
  ;({ browser, page, consoleErrors } = await openReport(path.join(outputDir, 'report.html')))
})

afterAll(async () => {
  await browser?.close()
})

const cellsOf = (route: string) =>
  page.locator('#permission-grid tbody tr', { has: page.locator('th', { hasText: route }) }).locator('td')

describe('the permission grid in Chromium', () => {
  it('shows one row per route and one column per credential', async () => {
    expect(await page.locator('#permission-grid-section').isVisible()).toBe(true)
    expect(await page.locator('#permission-grid thead th').allTextContents()).toEqual([
      'route',
      'none',
      'invalid',
      'revoked-token',
      'revoked-delete-token',
      'limited-token',
      'other-token',
    ])
    expect(await page.locator('#permission-grid tbody tr').count()).toBe(9)
    expect(consoleErrors).toEqual([])
  })

  it('marks the cell the mutant breaks as failed, skipped cells as skipped, open ones as open, with the steps on hover', async () => {
    const edit = cellsOf('PUT /fitnessActivities/<id>')
    expect(await edit.allTextContents()).toEqual(['passed', 'passed', 'passed', 'skipped', 'failed', 'passed'])
    expect(await edit.nth(4).getAttribute('title')).toContain('(answered 200)')
    expect(await cellsOf('GET /user').allTextContents()).toEqual([
      'passed',
      'passed',
      'passed',
      'skipped',
      'open',
      'open',
    ])
    expect(await cellsOf('GET /user').nth(4).getAttribute('title')).toMatch(/^not judged: /)
  })

  it("opens the route's scenario from its row", async () => {
    await page.locator('#permission-grid a', { hasText: 'PUT /fitnessActivities/<id>' }).click()
    expect(await page.locator('#scenario-permission-matrix-edit-activity').getAttribute('open')).not.toBeNull()
  })

  it('writes a screenshot of the grid under reports/', async () => {
    await page.locator('#permission-grid-section').screenshot({ path: screenshot })
    expect((await readFile(screenshot)).subarray(1, 4).toString()).toBe('PNG')
    expect(consoleErrors).toEqual([])
  })
})
