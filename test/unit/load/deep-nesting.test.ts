// Issue 25 item 6: a scenario file nested thousands of levels deep ran the quick reader, the `yaml`
// composer or the loader out of stack (E_INTERNAL, exit 1). The depth is now measured on the text
// first: past MAX_NESTING_DEPTH the file is a load error at the place it passes the limit.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../../src/load/load-rules.js'
import { loadScenarioFile } from '../../../src/load/load-suites.js'
import { findTooDeepNesting, MAX_NESTING_DEPTH } from '../../../src/load/nesting-depth.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

const HEAD =
  'scenarios:\n  - id: deep\n    title: deep\n    rules: [USER-READ]\n    steps:\n      - name: read\n        rule: USER-READ\n        request:\n          method: POST\n          url: /user\n          json: '
const TAIL = '\n        expect:\n          status: 200\n'
/** The levels HEAD puts around its `json:` value, as the scan counts them. */
const HEAD_LEVELS = 6

const flow = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`
const json = (n: number): string => `${'{"a": '.repeat(n)}1${'}'.repeat(n)}`
const compact = (n: number): string => `\n            ${'- '.repeat(n)}x`
const indented = (n: number): string =>
  `\n${Array.from({ length: n }, (_, i) => `${' '.repeat(12 + i)}a:\n`).join('')}${' '.repeat(12 + n)}x`

let knownRules: ReadonlySet<string>
beforeAll(async () => {
  knownRules = new Set((await loadRules()).rules.map((rule) => rule.id))
})

describe('a scenario file nested too deep is a load error with file:line:col', () => {
  it.each([
    { shape: 'YAML flow [[[…]]], 2,700 deep', value: flow(2_700), line: 11 },
    { shape: 'YAML flow [[[…]]], 200,000 deep', value: flow(200_000), line: 11 },
    { shape: 'JSON {"a": {"a": …}}, 200,000 deep', value: json(200_000), line: 11 },
    { shape: 'compact block sequences - - - x, 10,000 deep', value: compact(10_000), line: 12 },
    {
      shape: 'block maps indented a space a line, 2,800 deep',
      value: indented(2_800),
      line: 12 + MAX_NESTING_DEPTH - HEAD_LEVELS,
    },
  ])('$shape', async ({ value, line }) => {
    const file = join(makeTempDir('fitconform-deep-'), 'deep.yaml')
    writeFileSync(file, `${HEAD}${value}${TAIL}`)
    const { scenarios, diagnostics } = await loadScenarioFile(file, knownRules)
    expect(scenarios).toEqual([])
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_YAML_SYNTAX',
        kind: 'load',
        message: `nested deeper than ${MAX_NESTING_DEPTH} levels`,
      }),
    ])
    expect(diagnostics[0]?.at?.line).toBe(line)
    expect(diagnostics[0]?.at?.file).toMatch(/deep\.yaml$/)
  })

  it.each([
    { shape: 'flow', value: flow(MAX_NESTING_DEPTH - HEAD_LEVELS - 2) },
    { shape: 'JSON', value: json(MAX_NESTING_DEPTH - HEAD_LEVELS - 2) },
    { shape: 'compact block sequences', value: compact(MAX_NESTING_DEPTH - HEAD_LEVELS - 3) },
    { shape: 'indented block maps', value: indented(MAX_NESTING_DEPTH - HEAD_LEVELS - 2) },
  ])('$shape just under the limit loads, through every reader', async ({ value }) => {
    const file = join(makeTempDir('fitconform-deep-'), 'deep.yaml')
    writeFileSync(file, `${HEAD}${value}${TAIL}`)
    const { scenarios, diagnostics } = await loadScenarioFile(file, knownRules)
    expect(diagnostics).toEqual([])
    expect(scenarios).toHaveLength(1)
  })
})

describe('findTooDeepNesting counts levels, not brackets in text', () => {
  it.each([
    { case: 'flow past the limit', text: `a: ${flow(5)}`, at: 3 + 3 },
    { case: 'flow at the limit', text: `a: ${flow(3)}`, at: undefined },
    { case: 'flow over several lines', text: 'a: [\n [\n  [\n   [\n    []]]]]', at: 15 },
    { case: 'brackets in a double-quoted text', text: 'a: "[[[[[[\\"[[[["', at: undefined },
    { case: 'brackets in a single-quoted text', text: "a: '[[[[''[[[['", at: undefined },
    { case: 'a double-quoted text over lines', text: 'a: "x\n [[[[[[[[\n y"\nb: 1', at: undefined },
    { case: 'brackets in a comment', text: 'a: 1 # [[[[[[[[\n', at: undefined },
    { case: 'brackets in a block scalar', text: 'a: |\n  [[[[[[[[[[\n  {{{{{{{{\nb: 1', at: undefined },
    { case: 'brackets inside a plain scalar', text: 'a: b[[[[[[[[', at: undefined },
    {
      case: 'an open bracket in a plain text does not hide the lines after it',
      text: 'a: see [RFC\nb:\n c:\n  d:\n   e:\n    f: 1',
      at: 34,
    },
    {
      case: 'a quote in a plain text does not hide the lines after it',
      text: 'a: say "hi\nb:\n c:\n  d:\n   e:\n    f: 1',
      at: 33,
    },
    { case: 'flow after a compact dash (its item counted once more)', text: '- [[[[]]]]', at: 4 },
    { case: 'compact sequences', text: '- - - - - x', at: 8 },
    { case: 'indented maps', text: 'a:\n b:\n  c:\n   d:\n    e: 1', at: 22 },
    { case: 'siblings are not deeper', text: 'a:\n b: 1\n c: 1\n d: 1\n e: 1\n f: 1', at: undefined },
  ])('$case', ({ text, at }) => {
    expect(findTooDeepNesting(text, 4)).toBe(at)
  })
})
