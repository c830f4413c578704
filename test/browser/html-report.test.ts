// Opens the generated report.html from disk in headless Chromium and uses it as a reader would:
// no console errors (a CSP violation would be one), filters that react to clicks and typing, markup
// from the server shown as text, and a screenshot in reports/ to look at.
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHtmlReporter } from '../../src/report/html/html-reporter.js'
import { MARKUP_BODY, planOf, reported, sampleRun } from '../fixtures/report/build-result.js'
import { openReport } from './open-report.js'

const root = path.resolve(import.meta.dirname, '../..')
const outputDir = path.join(root, 'reports', 'browser-test')
const screenshot = path.join(root, 'reports', 'html-report.png')

let browser: Browser
let page: Page
let consoleErrors: string[] = []
let dialogs: string[] = []

async function visibleScenarioIds(): Promise<string[]> {
  return page.locator('details.scenario:not(.hidden) > summary .id').allTextContents()
}

beforeAll(async () => {
  await mkdir(outputDir, { recursive: true })
  const result = reported(sampleRun(), {
    known: [
      {
        scenario: 'activity-read',
        reason: 'the staging server is slow',
        link: 'https://tracker.example/FIT-3',
        at: { file: 'known.yaml', line: 1, column: 3 },
      },
    ],
  })
  await createHtmlReporter({ outputDir }).onRunEnd?.(result, planOf(result))
  ;({ browser, page, consoleErrors, dialogs } = await openReport(path.join(outputDir, 'report.html')))
})

afterAll(async () => {
  await browser?.close()
})

describe('the HTML report in Chromium', () => {
  it('loads without console errors and runs no script from the data', async () => {
    await expect.poll(() => page.locator('#filter-count').textContent()).toBe('showing 6 of 6 scenarios')
    expect(consoleErrors).toEqual([])
    expect(dialogs).toEqual([])
    expect(await page.locator('script').count()).toBe(2)
  })

  it('shows the summary bar and results grouped by spec section', async () => {
    expect(await page.locator('#closing-line').textContent()).toBe(
      '2 passed, 2 failed, 1 skipped, 1 warning, 1 expected failure (3.4s)',
    )
    expect(await page.locator('#results > section h2').allTextContents()).toEqual([
      '§2.2',
      '§4 endpoint 1',
      '§4 endpoint 3',
      '§4 endpoint 6',
      '§4 rule 2',
    ])
    expect(await page.locator('#summary-bar span').count()).toBeGreaterThan(1)
  })

  it('starts with failures by rule: each broken rule once, its quote, and an example that opens its scenario', async () => {
    const section = page.locator('#failures-by-rule')
    expect(await section.isVisible()).toBe(true)
    expect(await section.locator('h2').textContent()).toBe('Failures by rule (2)')
    const box = await section.boundingBox()
    const results = await page.locator('#results').boundingBox()
    expect(box!.y).toBeLessThan(results!.y)
    const cards = section.locator('.broken-rule')
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-rule')))).toEqual([
      'FEED-PAGE-SIZE',
      'FEED-ITEM-HAS-MAP-TEXT',
    ])
    const first = cards.first()
    expect(await first.locator('h3').textContent()).toBe('✘ FEED-PAGE-SIZE (§4 rule 2): broken in 1 scenario')
    expect(await first.locator('.rule-quote').textContent()).toContain('When the pageSize parameter is given')
    expect(await first.locator('pre.evidence').textContent()).toContain('body.items: expected length 4, got 25')
    await page.locator('#scenario-feed-page-size').evaluate((node) => node.removeAttribute('open'))
    await first.locator('a.example-link').click()
    expect(await page.locator('#scenario-feed-page-size').getAttribute('open')).not.toBeNull()
    expect(page.url()).toMatch(/#scenario-feed-page-size$/)
  })

  it('shows server markup as text in the evidence', async () => {
    const scenario = page.locator('#scenario-feed-page-size')
    expect(await scenario.getAttribute('open')).not.toBeNull()
    expect(await scenario.locator('pre.evidence').first().textContent()).toContain('rule FEED-PAGE-SIZE (§4 rule 2)')
    expect(await scenario.locator('pre.response').textContent()).toContain(MARKUP_BODY)
    expect(await scenario.locator('pre.curl').textContent()).toContain('$FITCONFORM_TOKEN')
  })

  it('filters by status when the buttons are clicked', async () => {
    await page.getByRole('button', { name: 'Failed' }).click()
    expect(await visibleScenarioIds()).toEqual(['activity-read', 'profile-read', 'feed-page-size'])
    expect(await page.locator('#filter-count').textContent()).toBe('showing 3 of 6 scenarios')
    expect(await page.locator('#results > section:not(.hidden)').count()).toBe(3)
    await page.getByRole('button', { name: 'Warnings' }).click()
    expect(await visibleScenarioIds()).toEqual(['feed-read'])
    await page.getByRole('button', { name: 'Skipped' }).click()
    expect(await visibleScenarioIds()).toEqual(['revoked-feed'])
    await page.getByRole('button', { name: 'All' }).click()
    expect(await visibleScenarioIds()).toHaveLength(6)
  })

  it('filters by tag and by typed text', async () => {
    await page.selectOption('#tag-filter', 'feed')
    expect(await visibleScenarioIds()).toEqual(['feed-read', 'feed-page-size'])
    await page.locator('#search').pressSequentially('honours')
    expect(await visibleScenarioIds()).toEqual(['feed-page-size'])
    await page.locator('#search').fill('no such scenario')
    expect(await visibleScenarioIds()).toEqual([])
    expect(await page.locator('#no-match').isVisible()).toBe(true)
    await page.locator('#search').fill('')
    await page.selectOption('#tag-filter', '')
    expect(await visibleScenarioIds()).toHaveLength(6)
  })

  it('has a rule coverage matrix that links to the scenarios', async () => {
    const row = page.locator('#coverage tr[data-rule="FEED-PAGE-SIZE"]')
    expect(await row.locator('td').nth(2).textContent()).toBe('failed')
    expect(await page.locator('#coverage tr[data-rule="ACTIVITY-READ"] td').nth(2).textContent()).toBe('error')
    await page.locator('#coverage tr[data-rule="FEED-ITEM-START-TIME-IRREGULAR"] a', { hasText: 'feed-read' }).click()
    expect(await page.locator('#scenario-feed-read').getAttribute('open')).not.toBeNull()
  })

  it('writes a screenshot under reports/', async () => {
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: screenshot, fullPage: true })
    expect((await readFile(screenshot)).subarray(1, 4).toString()).toBe('PNG')
    expect(consoleErrors).toEqual([])
  })
})
