import { describe, expect, it } from 'vitest'
import type { Step } from '../../../../src/model/scenario.js'
import type { AssertionResult } from '../../../../src/model/result.js'
import {
  addRejectionHint,
  collapsePages,
  isJudgedOnFirstAnswer,
  judgeAnswer,
  pollingCapNote,
  rulesOf,
  statusOf,
} from '../../../../src/execute/step/step-verdict.js'

const at = { file: 'suites/x.yaml', line: 3, column: 5 }
const step = (fields: Partial<Step> = {}): Step => ({
  name: 'read it',
  at,
  expect: { checks: [] },
  capture: {},
  ...fields,
})
const passed = (target: string, rule = 'ACTIVITY-FIELDS'): AssertionResult => ({
  ok: true,
  severity: 'failure',
  rules: [rule],
  target,
  matcher: 'equals',
  message: `${target} holds`,
  at,
})
const failed = (target: string, rule = 'ACTIVITY-FIELDS', fields: Partial<AssertionResult> = {}): AssertionResult => ({
  ok: false,
  severity: 'failure',
  rules: [rule],
  target,
  matcher: 'equals',
  message: `${target} is wrong`,
  at,
  ...fields,
})
const warned = (target: string): AssertionResult => ({ ...failed(target), severity: 'warning' })
const json = { body: { notes: 'x' }, bodyText: '{"notes":"x"}' }
const notJson = { body: undefined, bodyText: '<html>oops</html>' }

describe('judgeAnswer: blame exactly within one answer', () => {
  it.each<{
    title: string
    judged: AssertionResult[]
    scope: Record<string, unknown>
    kept: [string, boolean, string[]][]
    note?: string
  }>([
    {
      title: 'a wrong status leaves every other failed check of the answer out, and says which rules were not judged',
      judged: [
        failed('status', 'CREATE-STATUS'),
        failed('body.notes'),
        passed('body.type'),
        failed('headers.location', 'CREATE-LOCATION'),
      ],
      scope: json,
      kept: [['status', false, ['CREATE-STATUS']]],
      note: '(2 other failed checks on this answer not judged: ACTIVITY-FIELDS, CREATE-LOCATION)',
    },
    {
      title: 'a body that is not JSON is blamed once, under BODY-IS-JSON, and the body checks it stopped are left out',
      judged: [passed('status'), failed('body.notes'), failed('body.type'), passed('headers.content-type')],
      scope: notJson,
      kept: [
        ['status', true, ['ACTIVITY-FIELDS']],
        ['headers.content-type', true, ['ACTIVITY-FIELDS']],
        ['body', false, ['BODY-IS-JSON']],
      ],
      note: '(2 other failed checks on this answer not judged: ACTIVITY-FIELDS)',
    },
    {
      title: 'a body the schema check already called not JSON is not blamed twice',
      judged: [failed('body', 'BODY-IS-JSON', { matcher: 'schema' }), failed('body.notes')],
      scope: notJson,
      kept: [['body', false, ['BODY-IS-JSON']]],
    },
    {
      title: 'an empty body is no JSON fault: the checks on it stand',
      judged: [passed('status'), failed('body.notes')],
      scope: { body: undefined, bodyText: '' },
      kept: [
        ['status', true, ['ACTIVITY-FIELDS']],
        ['body.notes', false, ['ACTIVITY-FIELDS']],
      ],
    },
    {
      title: 'a right status keeps every check, failed warnings included',
      judged: [passed('status'), failed('body.notes'), warned('body.comments')],
      scope: json,
      kept: [
        ['status', true, ['ACTIVITY-FIELDS']],
        ['body.notes', false, ['ACTIVITY-FIELDS']],
        ['body.comments', false, ['ACTIVITY-FIELDS']],
      ],
    },
  ])('$title', ({ judged, scope, kept, note }) => {
    const verdict = judgeAnswer(judged, scope, step())
    expect(verdict.map((a) => [a.target, a.ok, a.rules])).toEqual(kept)
    if (note) expect(verdict.find((a) => !a.ok)!.message).toContain(note)
  })

  it('names the page of an answer met while following links', () => {
    expect(judgeAnswer([failed('body.size')], json, step(), 3)[0]!.message).toBe('page 3: body.size is wrong')
  })

  it('replaces a value nested too deep for the reports by a note', () => {
    const deep = JSON.parse('['.repeat(300) + ']'.repeat(300)) as unknown
    const [assertion] = judgeAnswer([failed('body', 'FEED-FIELDS', { actual: deep, expected: 1 })], json, step())
    expect(assertion).toMatchObject({ actual: '(JSON nested deeper than 200 levels, not shown)', expected: 1 })
  })
})

describe('collapsePages', () => {
  it("tells the same failure on several pages once, naming the pages; keeps a failure of one page, and each page's passes, as they are", () => {
    const pages = [1, 2, 3].map((page) => [
      passed('status'),
      {
        ...failed(`body.items[${page}].uri`, 'FEED-ITEM-URI-RELATIVE'),
        message: `page ${page}: body.items[*].uri is wrong`,
      },
    ])
    pages[1]!.push({ ...failed('body.previous', 'FEED-PREVIOUS-LINK'), message: 'page 2: body.previous is wrong' })
    expect(collapsePages(pages).map((a) => a.message)).toEqual([
      'status holds',
      '3 pages (1–3): body.items[*].uri is wrong',
      'status holds',
      'page 2: body.previous is wrong',
      'status holds',
    ])
  })
})

describe('addRejectionHint', () => {
  const withHint = step({ onRejected: 'it may refuse a type it does not know' })
  it.each<{
    title: string
    s: Step
    status: number
    sentBody: boolean
    assertions: AssertionResult[]
    hinted: boolean
  }>([
    {
      title: 'a 4xx to a body the suite wrote: the first failure carries the hint',
      s: withHint,
      status: 422,
      sentBody: true,
      assertions: [failed('status', 'CREATE-STATUS'), failed('body')],
      hinted: true,
    },
    {
      title: "a 5xx is the server's fault, no hint",
      s: withHint,
      status: 500,
      sentBody: true,
      assertions: [failed('status')],
      hinted: false,
    },
    {
      title: 'no body sent, no hint',
      s: withHint,
      status: 400,
      sentBody: false,
      assertions: [failed('status')],
      hinted: false,
    },
    {
      title: 'a step that passed needs no hint',
      s: withHint,
      status: 404,
      sentBody: true,
      assertions: [passed('status')],
      hinted: false,
    },
    {
      title: 'a step that says nothing of rejections gets none',
      s: step(),
      status: 422,
      sentBody: true,
      assertions: [failed('status')],
      hinted: false,
    },
  ])('$title', ({ s, status, sentBody, assertions, hinted }) => {
    const out = addRejectionHint(s, { status, sentBody }, assertions)
    expect(
      out[0]!.message.includes(
        `the server rejected the suite's own request body (${status}): it may refuse a type it does not know`,
      ),
    ).toBe(hinted)
    expect(out.slice(1)).toEqual(assertions.slice(1))
  })
})

describe('what is judged on the first answer of a polled step', () => {
  it.each([
    ['status', 'equals', true],
    ['headers.content-type', 'mediaType', true],
    ['body', 'schema', true],
    ['body.items', 'length', false],
  ] as const)('%s (%s): %s', (target, matcher, first) => {
    expect(isJudgedOnFirstAnswer({ ...passed(target), matcher })).toBe(first)
  })
})

describe('small verdict rules', () => {
  it('a failed warning does not fail the step', () => {
    expect(statusOf([passed('status'), warned('body.comments')])).toBe('passed')
    expect(statusOf([passed('status'), failed('body.notes')])).toBe('failed')
  })

  it('a step judges the rules of its checks, its schema and its parallel group, each once', () => {
    const branch = step({
      expect: {
        checks: [failed('status', 'CREATE-LOCATION')].map((a) => ({
          path: a.target,
          matcher: 'equals',
          expected: 201,
          rules: a.rules,
          at,
          severity: 'failure' as const,
        })),
      },
    })
    const group = step({
      expect: { checks: [], schema: { representation: 'FitnessActivity', rules: ['ACTIVITY-FIELDS'], at } },
      parallel: [{ step: branch, repeat: 2 }, { step: branch }],
    })
    expect(rulesOf(group)).toEqual(['ACTIVITY-FIELDS', 'CREATE-LOCATION'])
  })

  it('the polling cap is a warning that names the budget in seconds', () => {
    expect(pollingCapNote(step(), 30_000)).toMatchObject({
      ok: false,
      severity: 'warning',
      message: expect.stringContaining('(--max-polling 30 s) is used up'),
    })
  })
})
