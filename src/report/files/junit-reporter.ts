/**
 * JUnit XML, mapped the way hurl's junit.rs does it:
 *
 *   run                    → <testsuites name="fitconform" tests failures errors skipped time timestamp>
 *   scenario file (YAML)   → <testsuite name="suites/feed/page-size.yaml" file=… tests failures errors skipped time>
 *   scenario               → <testcase classname="<file>" name="<title>" file="<file>" time="0.120">
 *   id, rule ids, tags     → <properties><property name="rule" value="<rule id>"/>…</properties>
 *   rules it broke         → <property name="failed-rule" value="<rule id>"/> (the run's rule verdicts)
 *   failed checks          → <failure message="<first failed check>" type="E_CHECK_FAILED">evidence</failure>
 *   transport, timeout and
 *   internal step errors   → <error message="<diagnostic>" type="E_TIMEOUT">evidence</error>
 *   skipped                → <skipped message="<reason>"/>
 *   matrix cell not sent   → its own <testcase name="<title>: <route> with <credential>"> with <skipped message="<reason>"/>
 *   known failure (--expect-failures)
 *                          → <skipped message="known failure: <reason>"/>, evidence in <system-out>
 *   known failure passing  → <failure message="unexpectedly passed: …" type="E_UNEXPECTED_PASS"/>
 *   warnings               → <system-out>
 *   rule coverage line     → <!-- Rule coverage: … --> after the declaration (JUnit has no place for it; the same line as the console's)
 *
 * Sample:
 *
 *   <testsuites name="fitconform" tests="2" failures="1" errors="0" skipped="0" time="0.350" timestamp="2026-01-02T10:00:00.000Z">
 * <testsuite name="suites/feed/page-size.yaml" file="suites/feed/page-size.yaml" tests="2" failures="1" errors="0"
 * skipped="0" time="0.350">
 *       <testcase classname="suites/feed/page-size.yaml" name="The feed honours pageSize" file="suites/feed/page-size.yaml" time="0.120">
 *         <properties><property name="id" value="feed-page-size"/><property name="rule" value="<its rule id>"/></properties>
 *         <failure message="body.items has 25 elements, expected 4" type="E_CHECK_FAILED">step 1 "read a page" failed
 *   error[E_CHECK_FAILED]: body.items has 25 elements, expected 4 …</failure>
 *       </testcase>
 *     </testsuite>
 *   </testsuites>
 *
 * Evidence is the plain-text rendering of format-diagnostic.ts (no colour).
 */
import type { ReportedRunResult, ReportedScenarioResult } from '../../model/reported-result.js'
import { indexRules, formatAssertion, type RuleIndex } from '../text/format-diagnostic.js'
import {
  describeFailedStep,
  failedAssertions,
  failedSteps,
  formatStepEvidence,
  type EvidenceOptions,
  type FailedStep,
} from '../text/evidence.js'
import { writeReportFile, type FileReporterOptions } from './output-path.js'
import type { Reporter, RunPlanView } from '../../model/reporter.js'
import { describeKnownFailure, describeStaleRuleEntry } from '../text/known-failure-text.js'
import { staleRuleEntries } from '../../model/reported-result.js'
import { outcomeOf } from '../text/run-summary.js'
import { escapeXmlText, xmlAttributes } from './xml.js'
import { formatRuleCoverage } from '../text/rule-coverage-text.js'
import { REPORT_FILE_NAMES } from './report-file-names.js'

const JUNIT_REPORT_FILE = REPORT_FILE_NAMES['junit']!

export function createJunitReporter(options: FileReporterOptions): Reporter & { readonly name: 'junit' } {
  let written: string | undefined
  return {
    name: 'junit',
    printsToStdout: () => false,
    outputFiles: () => (written ? [written] : []),
    async onRunEnd(result: ReportedRunResult, plan: RunPlanView) {
      written = await writeReportFile(
        options,
        JUNIT_REPORT_FILE,
        renderJunit(result, indexRules(plan.rules), { ruleCoverage: !plan.generated }),
      )
    },
  }
}

interface Counts {
  tests: number
  failures: number
  errors: number
  skipped: number
  timeMs: number
}

interface TestCase {
  readonly xml: string
  readonly counts: Counts
}

/** The whole document; pure, so tests can read it without touching the disk. */
export function renderJunit(
  result: ReportedRunResult,
  rules: RuleIndex,
  options: { ruleCoverage?: boolean } = {},
): string {
  const byFile = new Map<string, ReportedScenarioResult[]>()
  for (const scenario of result.scenarios) {
    const inFile = byFile.get(scenario.file)
    if (inFile) inFile.push(scenario)
    else byFile.set(scenario.file, [scenario])
  }
  const total = emptyCounts()
  const brokenIn = new Map<string, string[]>()
  for (const verdict of result.rules) {
    for (const entry of verdict.scenarios)
      if (entry.status === 'failed') brokenIn.set(entry.id, [...(brokenIn.get(entry.id) ?? []), verdict.id])
  }
  const suites = [...byFile.entries()].map(([file, scenarios]) => {
    const cases = scenarios.flatMap((scenario) => [
      renderTestCase(scenario, rules, brokenIn.get(scenario.id) ?? []),
      ...skippedCellCases(scenario),
    ])
    const counts = sumCounts(cases.map((testCase) => testCase.counts))
    addCounts(total, counts)
    const attributes = xmlAttributes([
      ['name', file],
      ['file', file],
      ...countAttributes(counts),
      ['timestamp', result.startedAt],
    ])
    return `  <testsuite${attributes}>\n${cases.map((testCase) => testCase.xml).join('')}  </testsuite>\n`
  })
  const stale = staleRuleEntries(result)
  if (stale.length > 0) {
    // A rule entry that now passes fails the run once, as itself: no scenario of the run is to blame.
    const counts: Counts = { ...emptyCounts(), tests: stale.length, failures: stale.length }
    addCounts(total, counts)
    const cases = stale.map((report) => {
      const message = describeStaleRuleEntry(report)
      return `    <testcase${xmlAttributes([
        ['classname', 'known failures'],
        ['name', report.rule],
      ])}>\n      <failure${xmlAttributes([
        ['message', message],
        ['type', 'E_UNEXPECTED_PASS'],
      ])}/>\n    </testcase>\n`
    })
    suites.push(
      `  <testsuite${xmlAttributes([['name', 'known failures'], ...countAttributes(counts), ['timestamp', result.startedAt]])}>\n${cases.join('')}  </testsuite>\n`,
    )
  }
  const rootAttributes = xmlAttributes([
    ['name', 'fitconform'],
    ...countAttributes({ ...total, timeMs: result.durationMs }),
    ['timestamp', result.startedAt],
  ])
  const coverage =
    options.ruleCoverage !== false && result.rules.length > 0
      ? `<!-- ${formatRuleCoverage(result.rules).replaceAll('--', '- -')} -->\n`
      : ''
  return `<?xml version="1.0" encoding="UTF-8"?>\n${coverage}<testsuites${rootAttributes}>\n${suites.join('')}</testsuites>\n`
}

function renderTestCase(scenario: ReportedScenarioResult, rules: RuleIndex, brokenRules: readonly string[]): TestCase {
  const counts: Counts = { ...emptyCounts(), tests: 1, timeMs: scenario.durationMs }
  const children = [propertiesXml(scenario, brokenRules)]
  const outcome = outcomeOf(scenario)
  const evidenceOptions: EvidenceOptions = { colors: false, rules, scenarioRules: scenario.rules }
  const known = scenario.knownFailure
  const failed = failedSteps(scenario)
  const systemOut: string[] = []
  if (outcome === 'skipped') {
    counts.skipped++
    children.push(`<skipped${xmlAttributes([['message', scenario.skipReason ?? 'skipped']])}/>`)
  } else if (outcome === 'expected-failure') {
    counts.skipped++
    children.push(`<skipped${xmlAttributes([['message', `known failure: ${describeKnownFailure(known)}`]])}/>`)
    systemOut.push(failed.map((step) => stepText(step, evidenceOptions)).join('\n\n'))
  } else if (outcome === 'unexpectedly-passed') {
    counts.failures++
    const message = `unexpectedly passed: listed as a known failure (${describeKnownFailure(known)}); remove it from the list`
    children.push(
      `<failure${xmlAttributes([
        ['message', message],
        ['type', 'E_UNEXPECTED_PASS'],
      ])}/>`,
    )
  } else if (outcome === 'failed') {
    children.push(...problemElements(failed, evidenceOptions, counts))
  }
  if (scenario.warnings.length > 0) {
    systemOut.push(scenario.warnings.map((warning) => formatAssertion(warning, evidenceOptions)).join('\n'))
  }
  if (systemOut.length > 0) children.push(`<system-out>${escapeXmlText(systemOut.join('\n\n'))}</system-out>`)
  const attributes = xmlAttributes([
    ['classname', scenario.file],
    ['name', scenario.title],
    ['file', scenario.file],
    ['time', seconds(scenario.durationMs)],
  ])
  return {
    xml: `    <testcase${attributes}>\n${children.map((child) => `      ${child}\n`).join('')}    </testcase>\n`,
    counts,
  }
}

/**
 * A permission-matrix cell whose token was not given is its own <testcase> with <skipped>, so a
 * scenario that ran its other cells never makes the untested ones count as passed.
 */
function skippedCellCases(scenario: ReportedScenarioResult): TestCase[] {
  const seen = new Set<string>()
  const cases: TestCase[] = []
  for (const step of scenario.steps) {
    const cell = step.cell
    if (step.status !== 'skipped' || !cell || cell.open !== undefined || seen.has(`${cell.route} ${cell.credential}`))
      continue
    seen.add(`${cell.route} ${cell.credential}`)
    const attributes = xmlAttributes([
      ['classname', scenario.file],
      ['name', `${scenario.title}: ${cell.route} with ${cell.credential}`],
      ['file', scenario.file],
      ['time', seconds(0)],
    ])
    const skipped = `<skipped${xmlAttributes([['message', step.skipReason ?? 'token not given']])}/>`
    cases.push({
      xml: `    <testcase${attributes}>\n      ${skipped}\n    </testcase>\n`,
      counts: { ...emptyCounts(), tests: 1, skipped: 1 },
    })
  }
  return cases
}

/** Failed checks become one <failure>; steps that could not be judged one <error>. */
function problemElements(failed: readonly FailedStep[], evidenceOptions: EvidenceOptions, counts: Counts): string[] {
  const isError = (step: FailedStep): boolean => step.step.error !== undefined && step.step.error.kind !== 'failure'
  const errorSteps = failed.filter(isError)
  const failureSteps = failed.filter((step) => !isError(step))
  const elements: string[] = []
  if (failureSteps.length > 0 || errorSteps.length === 0) {
    counts.failures++
    const messages = failureSteps.flatMap(({ step }) => [
      ...failedAssertions(step).map((a) => a.message),
      ...(step.error ? [step.error.message] : []),
    ])
    const message =
      messages.length === 0
        ? 'scenario failed'
        : messages.length === 1
          ? messages[0]
          : `${messages[0]} (and ${messages.length - 1} more)`
    const text = failureSteps.map((step) => stepText(step, evidenceOptions)).join('\n\n')
    elements.push(
      `<failure${xmlAttributes([
        ['message', message],
        ['type', 'E_CHECK_FAILED'],
      ])}>${escapeXmlText(text)}</failure>`,
    )
  }
  if (errorSteps.length > 0) {
    counts.errors++
    const first = errorSteps[0]?.step.error
    const text = errorSteps.map((step) => stepText(step, evidenceOptions)).join('\n\n')
    elements.push(
      `<error${xmlAttributes([
        ['message', first?.message],
        ['type', first?.code],
      ])}>${escapeXmlText(text)}</error>`,
    )
  }
  return elements
}

function stepText(failed: FailedStep, evidenceOptions: EvidenceOptions): string {
  return `${describeFailedStep(failed)}\n${formatStepEvidence(failed.step, evidenceOptions)}`
}

function propertiesXml(scenario: ReportedScenarioResult, brokenRules: readonly string[]): string {
  const known = scenario.knownFailure
  const properties: Array<readonly [string, string]> = [
    ['id', scenario.id],
    ...scenario.rules.map((rule) => ['rule', rule] as const),
    ...scenario.tags.map((tag) => ['tag', tag] as const),
    ...brokenRules.map((rule) => ['failed-rule', rule] as const),
    ...(known ? [['known-failure', describeKnownFailure(known)] as const] : []),
  ]
  const items = properties.map(
    ([name, value]) =>
      `<property${xmlAttributes([
        ['name', name],
        ['value', value],
      ])}/>`,
  )
  return `<properties>${items.join('')}</properties>`
}

function emptyCounts(): Counts {
  return { tests: 0, failures: 0, errors: 0, skipped: 0, timeMs: 0 }
}

function sumCounts(all: readonly Counts[]): Counts {
  const total = emptyCounts()
  for (const counts of all) addCounts(total, counts)
  return total
}

function addCounts(total: Counts, counts: Counts): void {
  total.tests += counts.tests
  total.failures += counts.failures
  total.errors += counts.errors
  total.skipped += counts.skipped
  total.timeMs += counts.timeMs
}

function countAttributes(counts: Counts): Array<readonly [string, string | number]> {
  return [
    ['tests', counts.tests],
    ['failures', counts.failures],
    ['errors', counts.errors],
    ['skipped', counts.skipped],
    ['time', seconds(counts.timeMs)],
  ]
}

/** JUnit time: seconds with three decimals. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3)
}
