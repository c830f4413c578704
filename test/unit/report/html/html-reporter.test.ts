import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { indexRules } from '../../../../src/report/text/format-diagnostic.js'
import { createHtmlReporter, embedJson, findTemplate, renderHtml } from '../../../../src/report/html/html-reporter.js'
import type { PageData } from '../../../../src/report/html/page-data.js'
import {
  assertion,
  MARKUP_BODY,
  planOf,
  RULES,
  runResult,
  sampleRun,
  scenario,
  step,
  reported,
} from '../../../fixtures/report/build-result.js'

const rules = indexRules(RULES)
const template = await readFile(findTemplate(), 'utf8')

function pageData(html: string): PageData {
  const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1]
  return JSON.parse(json ?? 'null') as PageData
}

describe('renderHtml', () => {
  const html = renderHtml(template, reported(sampleRun()), rules)

  it('never lets markup from the server into the page', () => {
    expect(html).not.toContain(MARKUP_BODY)
    expect(html).toContain('\\u003cscript>alert(1)\\u003c/script>')
    expect(html.match(/<script\b/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
  })

  it('fetches nothing: no external sources, links or imports', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i)
    expect(html).not.toMatch(/@import|url\(\s*["']?http/i)
    expect(html).toContain("default-src 'none'")
  })

  it('allows exactly its own script through the Content-Security-Policy', () => {
    const script = /<script id="page-script">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    const hash = createHash('sha256').update(script, 'utf8').digest('base64')
    expect(html).toContain(`script-src 'sha256-${hash}'`)
    expect(script).toContain('function matchesFilter(')
  })

  it('embeds the results grouped by section with evidence and the rule coverage', () => {
    const data = pageData(html)
    expect(data.closingLine).toBe('2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
    expect(data.sections.map((section) => section.section)).toEqual([
      '§2.2',
      '§4 endpoint 1',
      '§4 endpoint 3',
      '§4 endpoint 6',
      '§4 rule 2',
    ])
    const pageSize = data.sections.flatMap((section) => section.scenarios).find((s) => s.id === 'feed-page-size')
    expect(pageSize?.outcome).toBe('failed')
    expect(pageSize?.steps[0]?.evidence).toContain('= rule FEED-PAGE-SIZE (§4 rule 2)')
    expect(pageSize?.steps[0]?.response).toContain(MARKUP_BODY)
    expect(pageSize?.steps[0]?.curl).toContain('$FITCONFORM_TOKEN')
    expect(data.coverage.find((rule) => rule.id === 'FEED-PAGE-SIZE')).toMatchObject({
      status: 'failed',
      scenarios: [{ id: 'feed-page-size', outcome: 'failed' }],
    })
    // The passing check of user-entry-point is filed under no rule: USER-READ was not judged there, only skipped elsewhere.
    expect(data.coverage.find((rule) => rule.id === 'USER-READ')).toMatchObject({ status: 'skipped' })
    expect(data.coverage.find((rule) => rule.id === 'ACTIVITY-READ')).toMatchObject({ status: 'error' })
    expect(data.failuresByRule.map((rule) => rule.id)).toEqual(['FEED-PAGE-SIZE', 'FEED-ITEM-HAS-MAP-TEXT'])
    expect(data.failuresByRule[0]).toMatchObject({
      section: '§4 rule 2',
      scenarios: ['feed-page-size'],
      example: { scenario: 'feed-page-size', step: 'step 1 "read a page of 4" failed' },
    })
    expect(data.coverage.find((rule) => rule.id === 'FEED-ITEM-START-TIME-IRREGULAR')).toMatchObject({
      status: 'warning',
      scenarios: [{ id: 'feed-read' }],
    })
    expect(
      pageData(renderHtml(template, reported(runResult([scenario()])), rules)).coverage.find(
        (rule) => rule.id === 'FEED-PAGE-SIZE',
      ),
    ).toMatchObject({ status: 'not-covered', scenarios: [] })
    expect(data.coverage.some((rule) => rule.id === 'MEDIA-TYPE-ACCEPT')).toBe(false)
  })

  it('escapes the title and keeps replacement patterns in data as they are', () => {
    const tricky = runResult(
      [scenario({ title: "$& $' $` __FITCONFORM_DATA__", steps: [step({ assertions: [assertion({ ok: false })] })] })],
      { target: 'http://x/<b>"' },
    )
    const page = renderHtml(template, reported(tricky), rules)
    expect(page).toContain('<title>fitconform: http://x/&lt;b&gt;&quot;</title>')
    expect(pageData(page).sections[0]?.scenarios[0]?.title).toBe("$& $' $` __FITCONFORM_DATA__")
  })
})

describe('embedJson', () => {
  it('writes < and line separators as escapes, and stays JSON', () => {
    const value = { a: '</script><!--', b: '\u2028\u2029' }
    const text = embedJson(value)
    expect(text).not.toMatch(/[<\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(value)
  })
})

describe('html reporter', () => {
  let dir = ''
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('writes report.html with personal data masked', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-html-'))
    const result = reported(sampleRun())
    await createHtmlReporter({ outputDir: dir }).onRunEnd?.(result, planOf(result))
    const html = await readFile(path.join(dir, 'report.html'), 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toContain('Lovelace')
  })

  it('says which template it could not read', async () => {
    const result = reported(sampleRun())
    await expect(
      createHtmlReporter({ outputDir: tmpdir(), templateFile: '/nonexistent/template.html' }).onRunEnd?.(
        result,
        planOf(result),
      ),
    ).rejects.toThrow('/nonexistent/template.html')
  })
})
