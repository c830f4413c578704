import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { indexRules } from '../../../../src/report/text/format-diagnostic.js'
import { createJunitReporter, renderJunit } from '../../../../src/report/files/junit-reporter.js'
import { escapeXmlAttribute, escapeXmlText, stripInvalidXmlChars } from '../../../../src/report/files/xml.js'
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
import { findAll, parseXml, type XmlElement } from '../../../fixtures/report/parse-xml.js'

const rules = indexRules(RULES)

function testcase(root: XmlElement, name: string): XmlElement {
  const found = findAll(root, 'testcase').find((element) => element.attributes['name'] === name)
  if (!found) throw new Error(`no testcase ${name}`)
  return found
}

describe('renderJunit', () => {
  const root = parseXml(renderJunit(reported(sampleRun()), rules))

  it('writes one testsuite per scenario file and one testcase per scenario', () => {
    expect(root.name).toBe('testsuites')
    expect(root.attributes).toMatchObject({ tests: '6', failures: '2', errors: '1', skipped: '1', time: '3.400' })
    expect(findAll(root, 'testsuite').map((suite) => [suite.attributes['name'], suite.children.length])).toEqual([
      ['suites/user/user.yaml', 1],
      ['suites/feed/page-size.yaml', 2],
      ['suites/activity/lifecycle.yaml', 1],
      ['suites/errors/auth-required.yaml', 1],
      ['suites/profile/edit-athlete-type.yaml', 1],
    ])
    expect(testcase(root, 'The entry point lists the user data sets').attributes).toEqual({
      classname: 'suites/user/user.yaml',
      name: 'The entry point lists the user data sets',
      file: 'suites/user/user.yaml',
      time: '0.120',
    })
  })

  it('puts failed checks in <failure> with the rule, expected and actual', () => {
    const failure = findAll(testcase(root, 'The feed honours pageSize & "quotes" <b>'), 'failure')[0]
    expect(failure?.attributes['message']).toBe('body.items: expected length 4, got 25 (and 1 more)')
    expect(failure?.text).toContain('rule FEED-PAGE-SIZE (§4 rule 2): "When the pageSize parameter is given')
    expect(failure?.text).toContain('= expected: length 4\n   = actual:   25')
    expect(failure?.text).toContain('"notes": "<script>alert(1)</script> bell\\u0007 & done"')
    expect(failure?.text).toContain('curl -i -sS')
  })

  it('puts steps that could not be judged in <error>', () => {
    const error = findAll(testcase(root, 'An activity can be read'), 'error')[0]
    expect(error?.attributes).toEqual({ message: 'no response headers within 5000 ms', type: 'E_TIMEOUT' })
    expect(findAll(testcase(root, 'An activity can be read'), 'failure')).toEqual([])
  })

  it('gives skips their reason and warnings a <system-out>', () => {
    expect(findAll(testcase(root, 'A revoked token reads nothing'), 'skipped')[0]?.attributes['message']).toBe(
      'no --revoked-token given',
    )
    expect(findAll(testcase(root, 'The feed is readable'), 'system-out')[0]?.text).toContain(
      'warning[E_CHECK_FAILED]: feed item 2 carries startTime',
    )
  })

  it('carries the id, rule ids and tags as properties', () => {
    const properties = findAll(testcase(root, 'The feed is readable'), 'property').map(
      (p) => `${p.attributes['name']}=${p.attributes['value']}`,
    )
    expect(properties).toEqual(['id=feed-read', 'rule=FEED-ITEM-HAS-MAP-TEXT', 'tag=feed', 'tag=smoke'])
  })

  it("names the rules a scenario broke, from the run's rule verdicts", () => {
    const properties = findAll(testcase(root, 'The feed honours pageSize & "quotes" <b>'), 'property').map(
      (p) => `${p.attributes['name']}=${p.attributes['value']}`,
    )
    expect(properties.filter((p) => p.startsWith('failed-rule='))).toEqual([
      'failed-rule=FEED-PAGE-SIZE',
      'failed-rule=FEED-ITEM-HAS-MAP-TEXT',
    ])
  })

  it('escapes markup and drops characters XML 1.0 forbids', () => {
    const nasty = 'a<b & "c" \u0001\u001b[31m\uFFFE\uD800 end'
    const result = runResult([
      scenario({
        title: nasty,
        steps: [step({ assertions: [assertion({ ok: false, message: nasty, expected: nasty, actual: 'x' })] })],
      }),
    ])
    const xml = renderJunit(reported(result), rules)
    const parsed = parseXml(xml)
    const cleaned = 'a<b & "c" [31m end'
    expect(findAll(parsed, 'testcase')[0]?.attributes['name']).toBe(cleaned)
    expect(findAll(parsed, 'failure')[0]?.attributes['message']).toBe(cleaned)
    for (const forbidden of ['\u0001', '\u001b', '\uFFFE']) expect(xml).not.toContain(forbidden)
  })

  it('reports a known failure as skipped and one that now passes as a failure', () => {
    const known = reported(
      runResult([
        scenario({ id: 'a', title: 'known', steps: [step({ assertions: [assertion({ ok: false })] })] }),
        scenario({ id: 'b', title: 'fixed' }),
      ]),
      {
        known: [
          { scenario: 'a', reason: 'tracked', link: 'https://tracker/1', at: { file: 'k.yaml', line: 1, column: 3 } },
          { scenario: 'b', reason: 'was broken', at: { file: 'k.yaml', line: 2, column: 3 } },
        ],
      },
    )
    const parsed = parseXml(renderJunit(known, rules))
    expect(findAll(testcase(parsed, 'known'), 'skipped')[0]?.attributes['message']).toBe(
      'known failure: tracked (https://tracker/1)',
    )
    expect(findAll(testcase(parsed, 'known'), 'system-out')[0]?.text).toContain('error[E_CHECK_FAILED]')
    expect(findAll(testcase(parsed, 'fixed'), 'failure')[0]?.attributes['message']).toBe(
      'unexpectedly passed: listed as a known failure (was broken); remove it from the list',
    )
    expect(parsed.attributes).toMatchObject({ failures: '1', skipped: '1' })
  })
})

describe('xml escaping', () => {
  it.each([
    { text: 'a & b', body: 'a &amp; b', attribute: 'a &amp; b' },
    { text: '<x>', body: '&lt;x&gt;', attribute: '&lt;x&gt;' },
    { text: `"q" 'a'`, body: `"q" 'a'`, attribute: '&quot;q&quot; &apos;a&apos;' },
    { text: 'line\nbreak\ttab', body: 'line\nbreak\ttab', attribute: 'line&#10;break&#9;tab' },
    { text: 'bell\u0007 nul\u0000', body: 'bell nul', attribute: 'bell nul' },
  ])('$text', ({ text, body, attribute }) => {
    expect(escapeXmlText(text)).toBe(body)
    expect(escapeXmlAttribute(text)).toBe(attribute)
  })

  it('keeps characters outside the BMP and drops lone surrogates', () => {
    expect(stripInvalidXmlChars('ok 😀 \uDC00!')).toBe('ok 😀 !')
  })
})

describe('junit reporter', () => {
  let dir = ''
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('writes junit.xml into the output directory, or to the path given', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-junit-'))
    const result = reported(sampleRun())
    await createJunitReporter({ outputDir: 'reports', cwd: dir }).onRunEnd?.(result, planOf(result))
    await createJunitReporter({ outputDir: 'reports', output: 'out/nested/ci.xml', cwd: dir }).onRunEnd?.(
      result,
      planOf(result),
    )
    const written = await readFile(path.join(dir, 'reports', 'junit.xml'), 'utf8')
    expect(() => parseXml(written)).not.toThrow()
    expect(written).not.toContain('Lovelace')
    expect(await readFile(path.join(dir, 'out', 'nested', 'ci.xml'), 'utf8')).toBe(written)
  })
})

describe('the well-formedness check used above', () => {
  it.each(['<a>&</a>', '<a><b></a></b>', '<a x=1/>', '<a>x</a><b/>', '<a>\u0001</a>', '<a x="<"/>', '<a>'])(
    'rejects %j',
    (xml) => {
      expect(() => parseXml(xml)).toThrow()
    },
  )
})
