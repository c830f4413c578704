import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../../src/shared/package-root.js'
import { compareAnswers } from '../../../src/diff/compare-answers.js'
import { classifyStep } from '../../../src/diff/classify-step.js'
import { IDENTIFIER_FORMAT, OPEN_CHOICES, type StepContext } from '../../../src/spec/open-choices.js'
import { createRoleMap } from '../../../src/diff/volatile-values.js'
import { summarizeDiff } from '../../../src/diff/summarize-diff.js'
import { failsAt } from '../../../src/cli/diff-command.js'
import { renderDiffHtml } from '../../../src/diff/report/diff-html.js'
import { renderDiffMarkdown } from '../../../src/diff/report/diff-markdown.js'
import { renderDiffConsole } from '../../../src/diff/report/diff-console.js'
import type { StepDiff } from '../../../src/diff/diff-result.js'

const spec = readFileSync(join(packageRoot(), 'docs/spec/fitness-data-service.md'), 'utf8').replace(/\s+/g, ' ')
const ACTIVITY = { 'content-type': 'application/vnd.com.service.FitnessActivity+json' }
const step = (over: Partial<StepContext> = {}): StepContext => ({
  method: 'GET',
  target: '/fitnessActivities',
  edited: new Set(),
  statuses: { new: 200, reference: 200 },
  ...over,
})

describe('open choices', () => {
  it.each([...OPEN_CHOICES, IDENTIFIER_FORMAT].map((choice) => [choice.kind, choice.quote]))(
    '%s quotes the spec word for word',
    (_kind, quote) => {
      expect(spec).toContain(quote.replace(/\s+/g, ' '))
    },
  )
})

describe('matching volatile values by role', () => {
  const roleNew = createRoleMap('http://127.0.0.1:1000/api', [
    { label: 'activity created by s step 1', url: '/fitnessActivities/17' },
  ])
  const roleReference = createRoleMap('http://127.0.0.1:2000', [
    { label: 'activity created by s step 1', url: '/fitnessActivities/9b2c-uuid' },
  ])

  it('finds no difference between the same role under two ids and two base URLs', () => {
    const a = {
      status: 200,
      headers: ACTIVITY,
      body: roleNew.json({
        uri: '/fitnessActivities/17',
        userID: 20001,
        comments: 'http://127.0.0.1:1000/api/fitnessActivities/17/comments',
      }),
    }
    const b = {
      status: 200,
      headers: ACTIVITY,
      body: roleReference.json({
        uri: '/fitnessActivities/9b2c-uuid',
        userID: 7001,
        comments: 'http://127.0.0.1:2000/fitnessActivities/9b2c-uuid/comments',
      }),
    }
    expect(compareAnswers(a, b)).toEqual([])
  })

  it('tells two different activities apart', () => {
    const a = { status: 200, headers: ACTIVITY, body: roleNew.json({ uri: '/fitnessActivities/17' }) }
    const b = { status: 200, headers: ACTIVITY, body: roleReference.json({ uri: '/fitnessActivities/5' }) }
    expect(compareAnswers(a, b)).toMatchObject([{ path: 'body.uri', nature: 'value' }])
  })

  it('takes empty notes and no notes as the same (§2.3 "present when set"), but not other notes', () => {
    expect(
      compareAnswers(
        { status: 200, headers: ACTIVITY, body: { notes: '' } },
        { status: 200, headers: ACTIVITY, body: {} },
      ),
    ).toEqual([])
    expect(
      compareAnswers(
        { status: 200, headers: ACTIVITY, body: {} },
        { status: 200, headers: ACTIVITY, body: { notes: 'x' } },
      ),
    ).toMatchObject([{ path: 'body.notes', nature: 'presence' }])
  })

  it('takes the run marker a replay added out of the notes', () => {
    const marked = createRoleMap('http://x', [], 'fitconform-run-1234abcd')
    expect(marked.json({ notes: 'fitconform-run-1234abcd morning run' })).toEqual({ notes: 'morning run' })
    expect(marked.json({ notes: 'fitconform-run-1234abcd', type: 'Running' })).toEqual({ type: 'Running' })
  })

  it("compares the order of the scenario's own feed entries once", () => {
    const items = (...ids: number[]) => ({
      items: ids.map((id) => ({ uri: `/fitnessActivities/<activity created by s step ${id}>`, type: 'Running' })),
    })
    const raw = compareAnswers(
      { status: 200, headers: {}, body: items(1, 2) },
      { status: 200, headers: {}, body: items(2, 1) },
      { ownLabel: 'activity created by s step ' },
    )
    expect(raw).toMatchObject([{ path: 'body.items', nature: 'order' }])
    expect(classifyStep(raw, { new: [], reference: [] }, step(), [])).toMatchObject([
      { class: 'open-choice', kind: 'feed-order', section: '§2.2' },
    ])
  })
})

describe('classifying a difference', () => {
  it('files a header the spec does not name as an extension, and a status difference of two errors under §7 rule 6', () => {
    const extension = compareAnswers({ status: 200, headers: { 'x-request-id': 'a' } }, { status: 200, headers: {} })
    expect(classifyStep(extension, { new: [], reference: [] }, step(), [])).toMatchObject([
      { class: 'extension', kind: 'extra-header', path: 'headers.x-request-id' },
    ])
    const statuses = compareAnswers({ status: 404, headers: {} }, { status: 410, headers: {} })
    expect(
      classifyStep(statuses, { new: [], reference: [] }, step({ statuses: { new: 404, reference: 410 } }), []),
    ).toMatchObject([{ class: 'open-choice', kind: 'error-status', section: '§7 rule 6' }])
  })

  it('files a check that fails on one side only under its rule, and leaves what no sentence explains unclassified', () => {
    const failed = {
      ok: false,
      severity: 'failure' as const,
      rules: ['LAST-MODIFIED-READ'],
      target: 'headers.last-modified',
      matcher: 'httpDate',
      message: 'absent',
    }
    const raw = compareAnswers(
      { status: 200, headers: { 'content-type': 'a' } },
      {
        status: 200,
        headers: { 'content-type': 'a', 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' },
        body: { type: 'Running' },
      },
    )
    const found = classifyStep(raw, { new: [failed], reference: [{ ...failed, ok: true }] }, step(), [])
    expect(found).toMatchObject([
      { class: 'conformance', kind: 'LAST-MODIFIED-READ' },
      { class: 'open-choice', kind: 'unclassified', path: 'body' },
    ])
  })
})

function resultWith(steps: StepDiff[]) {
  return summarizeDiff({
    mode: 'servers',
    startedAt: new Date(),
    sides: {
      new: { label: 'new', passed: 1, failed: 0, skipped: 0 },
      reference: { label: 'old', passed: 1, failed: 0, skipped: 0 },
    },
    rules: [],
    steps,
    created: { new: [], reference: [] },
  })
}

describe('--fail-on', () => {
  const extensionOnly = resultWith([
    {
      scenario: 's',
      step: 1,
      name: 'n',
      request: 'GET /user',
      differences: [{ class: 'extension', kind: 'extra-header', path: 'headers.x', new: '1', section: '' }],
    },
  ])
  const openChoice = resultWith([
    {
      scenario: 's',
      step: 1,
      name: 'n',
      request: 'GET /x',
      differences: [
        { class: 'open-choice', kind: 'error-status', path: 'status', new: 404, reference: 410, section: '§7 rule 6' },
      ],
    },
  ])
  it.each([
    ['conformance', false, false],
    ['open-choice', false, true],
    ['any', true, true],
  ] as const)('%s: extension fails %s, open choice fails %s', (level, failsOnExtension, failsOnOpenChoice) => {
    expect(failsAt(extensionOnly, level)).toBe(failsOnExtension)
    expect(failsAt(openChoice, level)).toBe(failsOnOpenChoice)
  })
})

describe('diff reports', () => {
  const hostile = resultWith([
    {
      scenario: 's',
      step: 1,
      name: '<script>alert(1)</script>',
      request: 'GET /user',
      differences: [
        {
          class: 'extension',
          kind: 'extra-field',
          path: 'body.note',
          new: '<img src=x onerror=alert(1)>',
          section: '',
        },
      ],
    },
  ])

  it("the HTML report shows a server's markup as text", () => {
    const html = renderDiffHtml(hostile)
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('Markdown and console list each open choice once, with its section', () => {
    const twice = resultWith(
      [1, 2].map((n) => ({
        scenario: 's',
        step: n,
        name: 'n',
        request: 'GET /x',
        differences: [
          {
            class: 'open-choice' as const,
            kind: 'error-status',
            path: 'status',
            new: 404,
            reference: 410,
            section: '§7 rule 6',
          },
        ],
      })),
    )
    expect(twice.openChoices).toMatchObject([{ kind: 'error-status', steps: 2 }])
    expect(renderDiffMarkdown(twice).match(/error-status/g)).toHaveLength(1)
    expect(renderDiffConsole(twice, { colors: false })).toContain('error-status  §7 rule 6')
  })
})
