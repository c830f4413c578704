// Loaded scenarios hold what they repeat once (src/load/load-suites.ts, src/shared/interning.ts):
// two scenarios of two files share equal leaves, what they share cannot be changed, and every
// scenario reads as a load without interning gives it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile, loadSuites } from '../../../src/load/load-suites.js'
import type { Scenario, Step } from '../../../src/model/scenario.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

/** One file's scenario: what suites repeat from file to file (rules, tags, request, checks), and an id of its own. */
function scenarioFile(id: string): string {
  return [
    'scenarios:',
    `  - id: ${id}`,
    '    title: GET /user answers 200 with a numeric userID',
    '    rules: [USER-READ]',
    '    tags: [smoke, user]',
    '    steps:',
    '      - name: read the entry point',
    '        request:',
    '          method: GET',
    '          url: /user',
    '          query: { fields: all }',
    '          headers: { X-Trace: held-once }',
    '        expect:',
    '          status: [200, 203]',
    '          checks:',
    '            - { path: body.userID, type: integer }',
    '            - { path: body.profile, equals: { kind: profile, at: /profile } }',
    '',
  ].join('\n')
}

const stepOf = (scenario: Scenario): Step => scenario.steps[0]!

let folder: string
let loaded: readonly Scenario[]
beforeAll(async () => {
  folder = makeTempDir('held-once-')
  writeFileSync(join(folder, 'a.yaml'), scenarioFile('held-once-a'))
  writeFileSync(join(folder, 'b.yaml'), scenarioFile('held-once-b'))
  const outcome = await loadSuites([folder])
  expect(outcome.diagnostics).toEqual([])
  loaded = outcome.scenarios
})

describe('loadSuites holds what scenarios repeat once', () => {
  it('gives two scenarios of two files the same rules, tags, query, headers and expected values', () => {
    const [first, second] = loaded as [Scenario, Scenario]
    expect(second.file).not.toBe(first.file)
    expect(second.rules).toBe(first.rules)
    expect(second.tags).toBe(first.tags)
    expect(second.tokens).toBe(first.tokens)
    expect(stepOf(second).request!.query).toBe(stepOf(first).request!.query)
    expect(stepOf(second).request!.headers).toBe(stepOf(first).request!.headers)
    const [status, type, profile] = stepOf(second).expect.checks
    expect(status!.expected).toBe(stepOf(first).expect.checks[0]!.expected)
    expect(profile!.expected).toBe(stepOf(first).expect.checks[2]!.expected)
    // A check's rules are the scenario's, so they are shared too.
    expect(type!.rules).toBe(first.rules)
  })

  it('keeps what each scenario has of its own: its id, its places', () => {
    const [first, second] = loaded as [Scenario, Scenario]
    expect([first.id, second.id]).toEqual(['held-once-a', 'held-once-b'])
    expect(stepOf(second).at).not.toBe(stepOf(first).at)
    expect(stepOf(second).at).toEqual({ ...stepOf(first).at, file: second.file })
  })

  it('freezes what is shared, so that no holder can change it for the others', () => {
    const [first] = loaded as [Scenario]
    const headers = stepOf(first).request!.headers as Record<string, string>
    expect(Object.isFrozen(first.rules)).toBe(true)
    expect(Object.isFrozen(headers)).toBe(true)
    expect(Object.isFrozen(first.at)).toBe(true)
    expect(() => (first.rules as string[]).push('USER-UPDATE')).toThrow(TypeError)
    expect(() => {
      headers['x-trace'] = 'changed'
    }).toThrow(TypeError)
    expect(first.rules).toEqual(['USER-READ'])
  })

  it('gives every scenario the values a load without interning gives', async () => {
    const knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
    const apart = [
      ...(await loadScenarioFile(join(folder, 'a.yaml'), knownRules)).scenarios,
      ...(await loadScenarioFile(join(folder, 'b.yaml'), knownRules)).scenarios,
    ]
    expect(loaded).toEqual(apart)
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(apart))
    expect(stepOf(loaded[1]!)).toMatchObject({
      name: 'read the entry point',
      request: { method: 'GET', url: '/user', query: { fields: 'all' }, headers: { 'x-trace': 'held-once' } },
    })
  })
})
