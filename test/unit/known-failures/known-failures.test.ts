import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConformanceError } from '../../../src/model/diagnostic.js'
import {
  checkKnownFailureIds,
  loadKnownFailures,
  parseKnownFailures,
} from '../../../src/known-failures/known-failures.js'

describe('parseKnownFailures', () => {
  it('reads scenario and rule entries with their positions', () => {
    const text = [
      '# known gaps of the staging server',
      '- scenario: feed-page-size',
      '  reason: pageSize is ignored',
      '  link: https://tracker.example/FIT-12',
      '- rule: FEED-ITEM-HAS-MAP-TEXT',
      '  reason: has_map is a boolean',
      '',
    ].join('\n')
    expect(parseKnownFailures(text, 'known.yaml')).toEqual([
      {
        scenario: 'feed-page-size',
        reason: 'pageSize is ignored',
        link: 'https://tracker.example/FIT-12',
        at: { file: 'known.yaml', line: 2, column: 3 },
      },
      {
        rule: 'FEED-ITEM-HAS-MAP-TEXT',
        reason: 'has_map is a boolean',
        at: { file: 'known.yaml', line: 5, column: 3 },
      },
    ])
  })

  it('accepts an empty file', () => {
    expect(parseKnownFailures('# nothing known yet\n', 'known.yaml')).toEqual([])
  })

  it.each([
    {
      name: 'not a list',
      text: 'scenario: x\nreason: y\n',
      error: 'known.yaml:1:1: the known-failures file must be a list',
    },
    {
      name: 'an item that is not a mapping',
      text: '- just text\n',
      error: 'known.yaml:1:3: each known failure must be a mapping',
    },
    {
      name: 'an unknown key',
      text: '- scenario: a\n  reason: b\n  ticket: c\n',
      error: 'known.yaml:3:3: unknown key "ticket" (allowed: scenario, rule, reason, link)',
    },
    { name: 'no reason', text: '- scenario: a\n', error: 'known.yaml:1:3: a known failure needs a reason' },
    {
      name: 'neither scenario nor rule',
      text: '- reason: b\n',
      error: 'known.yaml:1:3: a known failure needs a scenario id or a rule id',
    },
    {
      name: 'a value that is not text',
      text: '- scenario: [a, b]\n  reason: b\n',
      error: 'known.yaml:1:13: "scenario" must be a non-empty text',
    },
    {
      name: 'a duplicate key',
      text: '- scenario: a\n  scenario: b\n  reason: c\n',
      error: 'known.yaml:2:3: DUPLICATE_KEY',
    },
    { name: 'bad YAML', text: '- scenario: a\n reason: [\n', error: 'known.yaml:2:' },
  ])('points at the line of $name', ({ text, error }) => {
    let caught: unknown
    try {
      parseKnownFailures(text, 'known.yaml')
    } catch (thrown) {
      caught = thrown
    }
    expect(caught).toBeInstanceOf(ConformanceError)
    const { at, message } = (caught as ConformanceError).diagnostic
    expect(`${at?.file}:${at?.line}:${at?.column}: ${message}`.startsWith(error)).toBe(true)
    expect((caught as ConformanceError).diagnostic.code).toBe('E_CONFIG')
  })
})

describe('loadKnownFailures', () => {
  it('reads the file, and names it when it cannot', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fitconform-known-'))
    try {
      const file = path.join(dir, 'known.yaml')
      await writeFile(file, '- scenario: a\n  reason: b\n')
      expect(await loadKnownFailures(file)).toEqual([{ scenario: 'a', reason: 'b', at: { file, line: 1, column: 3 } }])
      await expect(loadKnownFailures(path.join(dir, 'missing.yaml'))).rejects.toThrow(
        `cannot read the known-failures file ${path.join(dir, 'missing.yaml')}`,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('checkKnownFailureIds', () => {
  it('reports ids the run does not know, with their line', () => {
    const known = parseKnownFailures(
      '- scenario: typo-id\n  reason: r\n- rule: USER-READ\n  reason: r\n- rule: NO-SUCH-RULE\n  reason: r\n',
      'k.yaml',
    )
    const problems = checkKnownFailureIds(known, {
      scenarios: new Set(['user-entry-point']),
      rules: new Set(['USER-READ']),
    })
    expect(problems.map(({ at, message }) => `${at?.file}:${at?.line}:${at?.column}: ${message}`)).toEqual([
      'k.yaml:1:3: unknown scenario id "typo-id"',
      'k.yaml:5:3: unknown rule id "NO-SUCH-RULE"',
    ])
  })
})
