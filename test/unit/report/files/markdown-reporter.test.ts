import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { indexRules } from '../../../../src/report/text/format-diagnostic.js'
import {
  createMarkdownReporter,
  escapeMarkdown,
  renderMarkdown,
} from '../../../../src/report/files/markdown-reporter.js'
import {
  assertion,
  planOf,
  reported,
  RULES,
  runResult,
  sampleRun,
  scenario,
  step,
} from '../../../fixtures/report/build-result.js'

const rules = indexRules(RULES)

describe('renderMarkdown', () => {
  const text = renderMarkdown(reported(sampleRun()), rules)

  it('opens with the closing line and has a table per spec section', () => {
    expect(text.split('\n')[0]).toBe('## fitconform: 2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
    expect(text).toContain(
      '### §4 endpoint 1\n\n| | Scenario | Result | Time |\n|---|---|---|---|\n| ✅ | <code>user-entry-point</code> The entry point lists the user data sets | passed | 120ms |\n| ⏭️ | <code>revoked-feed</code>',
    )
    expect(text).toContain('| ✅ | <code>feed-read</code> The feed is readable | passed, 1 warning | 120ms |')
  })

  it('collapses each failure with its evidence', () => {
    const start = text.indexOf('<details><summary>❌ <code>feed-page-size</code>')
    const block = text.slice(start, text.indexOf('</details>', start))
    expect(block).toContain('= rule FEED-PAGE-SIZE (§4 rule 2)')
    expect(block).toContain('= expected: length 4\n   = actual:   25')
    expect(block).toContain('```text\n')
    expect(block).toContain('curl -i -sS')
  })

  it('starts with failures by rule: id, section, quote, how many scenarios, one collapsed example', () => {
    const byRule = text.indexOf('### Failures by rule (2)')
    expect(byRule).toBeGreaterThan(0)
    expect(byRule).toBeLessThan(text.indexOf('### §4 endpoint 1'))
    expect(text).toContain('> When the pageSize parameter is given, the page holds that many entries')
    expect(text).toContain(
      '<details><summary>❌ <code>FEED-PAGE-SIZE</code> (§4 rule 2): broken in 1 scenario (feed-page-size)</summary>',
    )
    expect(text).toContain('example: feed-page-size, step 1 "read a page of 4" failed')
  })

  it('fits a pull-request comment (64 KB) whatever the server sends', () => {
    const huge = 'x'.repeat(30_000)
    const many = Array.from({ length: 300 }, (_, index) =>
      scenario({
        id: `s-${index}`,
        title: huge.slice(0, 200),
        rules: [`RULE-${index}`],
        steps: [
          step({
            response: { status: 500, headers: {}, body: huge, bodyBytes: huge.length },
            assertions: [assertion({ ok: false, rules: [`RULE-${index}`], message: huge })],
          }),
        ],
      }),
    )
    const rendered = renderMarkdown(reported(runResult(many)), rules)
    expect(rendered.length).toBeLessThanOrEqual(64_000)
    expect(rendered).toContain('### Failures by rule (300)')
    expect(rendered).toContain('results.json and report.html hold everything')
  })

  it('lists warnings and skips with their reasons', () => {
    expect(text).toContain('### Warnings (1)')
    expect(text).toContain('<details><summary>⚠️ <code>feed-read</code> The feed is readable: 1 warning</summary>')
    expect(text).toContain(
      '### Skipped\n\n- <code>revoked-feed</code> A revoked token reads nothing: no --revoked-token given',
    )
  })

  it('escapes markup in titles and fences evidence holding backticks', () => {
    const nasty = runResult([
      scenario({
        title: 'a | b <img src=x onerror=alert(1)> *bold*',
        steps: [step({ assertions: [assertion({ ok: false, message: 'has ``` and ```` in it' })] })],
      }),
    ])
    const rendered = renderMarkdown(reported(nasty), rules)
    expect(rendered).toContain('a \\| b &lt;img src=x onerror=alert(1)&gt; \\*bold\\*')
    expect(rendered).not.toContain('<img')
    expect(rendered).toContain('`````text\n')
  })

  it('shows known failures and known failures that now pass', () => {
    const result = reported(sampleRun(), {
      known: [
        { scenario: 'activity-read', reason: 'staging is slow', at: { file: 'k.yaml', line: 1, column: 3 } },
        {
          scenario: 'user-entry-point',
          reason: 'was broken',
          link: 'https://tracker/7',
          at: { file: 'k.yaml', line: 3, column: 3 },
        },
      ],
    })
    const rendered = renderMarkdown(result, rules)
    expect(rendered.split('\n')[0]).toBe(
      '## fitconform: 2 passed, 2 failed, 1 skipped, 1 warning, 1 expected failure, 1 unexpectedly passed (3.4s)',
    )
    expect(rendered).toContain(
      '<summary>☑️ <code>activity-read</code> An activity can be read: known failure, staging is slow</summary>',
    )
    expect(rendered).toContain('listed as a known failure (was broken (https://tracker/7)); remove it from the list')
  })
})

describe('escapeMarkdown', () => {
  it.each([
    { text: 'plain words', escaped: 'plain words' },
    { text: 'a|b', escaped: 'a\\|b' },
    { text: '<b>&', escaped: '&lt;b&gt;&amp;' },
    { text: '_x_ [y](z) `c` #1', escaped: '\\_x\\_ \\[y\\](z) \\`c\\` \\#1' },
    { text: 'two\nlines', escaped: 'two lines' },
  ])('$text', ({ text, escaped }) => {
    expect(escapeMarkdown(text)).toBe(escaped)
  })
})

describe('markdown reporter', () => {
  let dir = ''
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('writes summary.md and appends the same text to $GITHUB_STEP_SUMMARY', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-md-'))
    const stepSummaryFile = path.join(dir, 'step-summary.md')
    await writeFile(stepSummaryFile, '# earlier step\n')
    const result = reported(sampleRun())
    await createMarkdownReporter({ outputDir: dir, stepSummaryFile }).onRunEnd?.(result, planOf(result))
    const written = await readFile(path.join(dir, 'summary.md'), 'utf8')
    expect(written).not.toContain('Lovelace')
    expect(await readFile(stepSummaryFile, 'utf8')).toBe(`# earlier step\n${written}\n`)
  })
})
