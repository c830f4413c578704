import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PageData } from '../../src/report/html/page-data.js'
import type { RuleVerdict } from '../../src/model/reported-result.js'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/temp-dir.js'

/*
 * Issue 28 problem 4: the rule table of every report comes from the checks that ran, so a passing
 * run agrees with `fitconform rules`, and every output states the same rule coverage line.
 */

interface RuleListing {
  id: string
  appliesTo: string
  retired: boolean
  scenarios: string[]
}

function readOutputs(
  outputDir: string,
  stdout: string,
): { verdicts: RuleVerdict[]; lines: Record<string, string | undefined> } {
  const verdicts = (JSON.parse(readFileSync(join(outputDir, 'results.json'), 'utf8')) as { rules: RuleVerdict[] }).rules
  const html = readFileSync(join(outputDir, 'report.html'), 'utf8')
  const page = JSON.parse(
    /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
  ) as PageData
  const line = (text: string): string | undefined => /Rule coverage: [^\n<]*?(?= -->|\n|$)/m.exec(text)?.[0]
  return {
    verdicts,
    lines: {
      console: line(stdout),
      markdown: line(readFileSync(join(outputDir, 'summary.md'), 'utf8')),
      junit: line(readFileSync(join(outputDir, 'junit.xml'), 'utf8')),
      html: page.coverageLine,
    },
  }
}

describe('a passing embedded run of the built-in suites', () => {
  let listed: RuleListing[]
  let outcome: Awaited<ReturnType<typeof runCli>>
  let outputs: ReturnType<typeof readOutputs>

  beforeAll(async () => {
    listed = JSON.parse((await runCli(['rules', '--json'])).stdout) as RuleListing[]
    const outputDir = makeTempDir('fitconform-coverage-')
    outcome = await runCli(['run', '--output-dir', outputDir, '--reporter', 'console,json,junit,html,markdown'])
    outputs = readOutputs(outputDir, outcome.stdout)
  }, 180_000)

  it('passes', () => {
    expect(outcome.code, outcome.stderr).toBe(0)
  })

  it('reports every rule `fitconform rules` lists as covered as passed, schema-checked ones included', () => {
    const covered = listed
      .filter((rule) => rule.appliesTo === 'server' && !rule.retired && rule.scenarios.length > 0)
      .map((rule) => rule.id)
    expect(covered.length).toBeGreaterThan(60)
    const status = new Map(outputs.verdicts.map((verdict) => [verdict.id, verdict.status]))
    expect(covered.filter((id) => status.get(id) !== 'passed')).toEqual([])
    // The ones the reports used to list as "not-covered / no scenario".
    for (const id of ['FEED-ITEM-HAS-MAP-TEXT', 'ACTIVITY-START-TIME-FORMAT', 'IRREG-ITEM-URI-FORM'])
      expect(status.get(id)).toBe('passed')
  })

  it('states the same rule coverage in the console, results.json, HTML, Markdown and JUnit', () => {
    const total = outputs.verdicts.length
    const passed = outputs.verdicts.filter((verdict) => verdict.status === 'passed').length
    expect(passed).toBe(total)
    const expected = `Rule coverage: ${passed} of ${total} rules covered (${passed} passed)`
    expect(outputs.lines).toEqual({ console: expected, markdown: expected, junit: expected, html: expected })
  })
})

describe('a run filtered to one scenario', () => {
  it('reports the rules only other scenarios judge as not covered, in every output', async () => {
    const outputDir = makeTempDir('fitconform-coverage-one-')
    const outcome = await runCli([
      'run',
      '--grep',
      '^user-entry-point$',
      '--output-dir',
      outputDir,
      '--reporter',
      'console,json,junit,html,markdown',
    ])
    expect(outcome.code, outcome.stderr).toBe(0)
    const { verdicts, lines } = readOutputs(outputDir, outcome.stdout)
    const judged = verdicts.filter((verdict) => verdict.status !== 'not-covered').map((verdict) => verdict.id)
    expect(judged.sort()).toEqual([
      'BODY-IS-JSON',
      'MEDIA-TYPE-RESPONSE',
      'USER-FIELDS',
      'USER-LINKS-RELATIVE',
      'USER-READ',
    ])
    expect(verdicts.find((verdict) => verdict.id === 'ACTIVITY-HAS-MAP-TEXT')?.status).toBe('not-covered')
    const expected = `Rule coverage: 5 of ${verdicts.length} rules covered (5 passed); ${verdicts.length - 5} not covered`
    expect(lines).toEqual({ console: expected, markdown: expected, junit: expected, html: expected })
  }, 120_000)
})
