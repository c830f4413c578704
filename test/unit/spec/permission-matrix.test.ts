import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { expandPermissionMatrix } from '../../../src/spec/permission-matrix.js'
import { validateScenarioFile } from '../../../src/load/scenario-file-validator.js'
import { parseYamlSource } from '../../../src/load/yaml-source.js'
import type { Diagnostic } from '../../../src/model/diagnostic.js'
import type { Scenario } from '../../../src/model/scenario.js'

let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})

const HEAD = `permissionMatrix:
  id: grid
  title: each credential gets what §5 and §7 say
  tags: [permissions]
  credentials:
    - { auth: none, label: without a token, rule: AUTH-REQUIRED }
    - { auth: revoked-token, label: with the revoked token, rule: ERROR-403-REVOKED }
    - { auth: other-token, label: with the other user's token, rule: AUTH-USER-ISOLATION }
  routes:
`

function expand(routes: string, head = HEAD): { scenarios: Scenario[]; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = parseYamlSource(join(process.cwd(), 'matrix.yaml'), head + routes)
  if (!source) return { scenarios: [], diagnostics }
  const schemaProblems = validateScenarioFile(source)
  if (schemaProblems.length > 0) return { scenarios: [], diagnostics: schemaProblems }
  return expandPermissionMatrix(source, knownRules)
}

const FEED = `    - id: feed
      route: GET /fitnessActivities
      target: account
      request: { method: GET, url: /fitnessActivities, accept: FitnessActivityFeed }
      data: [body.items]
      cells: { none: refused, revoked-token: revoked, other-token: { open: "their own feed" } }
`

const EDIT = `    - id: edit
      route: PUT /fitnessActivities/<id>
      target: activity
      date: 12-12
      request: { method: PUT, url: "\${activity}", contentType: FitnessActivityEdit, accept: FitnessActivity, json: { notes: x } }
      cells: { none: refused, revoked-token: refused-or-revoked, other-token: refused }
`

describe('expandPermissionMatrix', () => {
  it('makes one scenario per route and one step per cell of a read on the account', () => {
    const { scenarios, diagnostics } = expand(FEED)
    expect(diagnostics).toEqual([])
    expect(scenarios).toHaveLength(1)
    const feed = scenarios[0]!
    expect(feed.id).toBe('grid-feed')
    expect(feed.matrixRow?.cells.map((cell) => `${cell.credential}${cell.open ? ' open' : ''}`)).toEqual([
      'none',
      'revoked-token',
      'other-token open',
    ])
    expect(feed.steps.map((step) => [step.cell?.credential, step.request?.auth ?? 'no request'])).toEqual([
      ['none', 'none'],
      ['revoked-token', 'revoked-token'],
      ['other-token', 'no request'],
    ])
    expect(feed.tokens).toEqual([]) // the cells' own tokens skip single cells, not the route
    expect(feed.writes).toBe(false)
  })

  it('asks an exact 403 ErrorMessage of the revoked token on its own data', () => {
    const revoked = expand(FEED).scenarios[0]!.steps[1]!
    const checks = revoked.expect.checks.map(
      (check) =>
        `${check.path} ${check.matcher} ${JSON.stringify(check.expected)} ${check.rules.join(',')}${(check.when ?? []).map((c) => ` when ${c.path} ${c.matcher} ${JSON.stringify(c.expected)}`).join('')}`,
    )
    expect(checks).toEqual([
      'status equals 403 ERROR-403-REVOKED',
      'headers.content-type mediaType "ErrorMessage" ERROR-MEDIA-TYPE',
      // A reason the table does not list is ERROR-FIELDS' (the schema), not this cell's.
      'body.reason equals "Revoked" ERROR-403-REVOKED when body.reason oneOf ["Revoked","Insufficient permission"]',
      'body.delete_health | bool equals false ERROR-403-REVOKED',
      'body.items absent true ERROR-403-REVOKED',
    ])
    expect(revoked.expect.schema?.representation).toBe('ErrorMessage')
  })

  it("gives a write cell a fresh activity and a read-back, and on the main user's activity judges the reason only on a 403", () => {
    const edit = expand(EDIT).scenarios[0]!
    const revokedSteps = edit.steps.filter((step) => step.cell?.credential === 'revoked-token')
    expect(revokedSteps.map((step) => `${step.request?.method} ${step.request?.auth}`)).toEqual([
      'POST token',
      'GET token',
      'PUT revoked-token',
      'GET token',
    ])
    // Before the attempt, the create's own record is read (CREATE-RECORDS): "untouched" is judged against it.
    expect(revokedSteps[1]!.expect.checks.map((check) => `${check.path} ${check.rules.join(',')}`)).toEqual([
      'status CREATE-RECORDS',
      'body.notes CREATE-RECORDS',
      'body.path CREATE-RECORDS',
    ])
    const attempt = revokedSteps[2]!
    expect(attempt.expect.checks.find((check) => check.path === 'status')).toMatchObject({
      matcher: 'notStatusClass',
      expected: '2xx',
    })
    const reasons = attempt.expect.checks.filter((check) => check.path === 'body.reason')
    expect(reasons.map((check) => [check.matcher, check.rules, check.when])).toEqual([
      [
        'equals',
        ['ERROR-403-REVOKED'],
        [
          { path: 'status', matcher: 'equals', expected: 403 },
          { path: 'body.reason', matcher: 'oneOf', expected: ['Revoked', 'Insufficient permission'] },
        ],
      ],
      // With no schema check on a lenient cell, a 403's reason outside the table is judged here.
      ['oneOf', ['ERROR-FIELDS'], [{ path: 'status', matcher: 'equals', expected: 403 }]],
    ])
    expect(attempt.expect.schema).toBeUndefined()
    // No data is judged by what the body is: not labelled as the activity, whatever generic fields it has.
    const labelled = attempt.expect.checks.find(
      (check) => check.path === "headers.content-type ?? ''" && check.rules.includes('ERROR-403-REVOKED'),
    )
    expect(labelled?.matcher).toBe('notMatches')
    expect(
      new RegExp(String(labelled?.expected)).test('application/vnd.com.service.fitnessactivity+json; charset=utf-8'),
    ).toBe(true)
    expect(new RegExp(String(labelled?.expected)).test('application/problem+json')).toBe(false)
    const readBack = revokedSteps[3]!
    expect(readBack.expect.checks.map((check) => `${check.path} ${check.matcher}`)).toEqual([
      'status equals',
      'body.notes equals',
      'body.path length',
    ])
    expect(readBack.expect.checks.find((check) => check.path === 'body.notes')?.expected).toBe(
      (revokedSteps[0]!.request?.json as { notes: string }).notes,
    )
    expect(edit.tokens).toEqual(['token'])
    expect(edit.writes).toBe(true)
  })

  it('judges only the status of a HEAD', () => {
    const head = expand(
      EDIT.replace('PUT /fitnessActivities', 'HEAD /fitnessActivities')
        .replace('method: PUT', 'method: HEAD')
        .replace(', json: { notes: x }', ''),
    ).scenarios[0]!
    // A read shares one activity, created first.
    expect(head.steps[0]!.cell).toBeUndefined()
    for (const step of head.steps.slice(1)) expect(step.expect.checks.map((check) => check.path)).toEqual(['status'])
  })

  it.each([
    {
      what: 'a missing cell',
      routes: FEED.replace(', other-token: { open: "their own feed" }', ''),
      messages: ['the row GET /fitnessActivities has no cell for other-token'],
      line: 15,
    },
    {
      what: 'an activity row without its day',
      routes: EDIT.replace('      date: 12-12\n', ''),
      messages: [
        'the row PUT /fitnessActivities/<id> acts on an activity, so it needs "date" (the far-past day its activities start on)',
      ],
      line: 10,
    },
    {
      what: 'a create row without a day for a judged cell',
      routes: FEED.replace('target: account', 'target: new-activity'),
      messages: [
        'the create row needs a day of its own in "dates" for none',
        'the create row needs a day of its own in "dates" for revoked-token',
      ],
      line: 10,
    },
  ])('reports $what at its line', ({ routes, messages, line }) => {
    const { diagnostics } = expand(routes)
    expect(diagnostics.map((d) => [d.message, d.at?.line])).toEqual(messages.map((message) => [message, line]))
  })

  it('reports an unknown rule and an unknown outcome with their lines', () => {
    expect(
      expand(FEED, HEAD.replace('rule: AUTH-REQUIRED', 'rule: AUTH-REQUIRD')).diagnostics.map((d) => [
        d.code,
        d.hint,
        d.at?.line,
      ]),
    ).toEqual([['E_UNKNOWN_RULE', 'did you mean "AUTH-REQUIRED"?', 6]])
    const unknownOutcome = expand(FEED.replace('none: refused', 'none: denied')).diagnostics
    expect(unknownOutcome.length).toBeGreaterThan(0)
    expect(unknownOutcome.every((d) => d.code === 'E_SCENARIO_SCHEMA' && d.at?.line === 15)).toBe(true)
  })

  it('reports a variable the row does not have', () => {
    const { diagnostics } = expand(FEED.replace('url: /fitnessActivities,', 'url: "${feed}",'))
    expect(diagnostics.map((d) => [d.code, d.at?.line])).toEqual([['E_TEMPLATE_UNDEFINED', 13]])
  })
})
