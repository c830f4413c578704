import { describe, expect, it } from 'vitest'
import { applyKnownFailures } from '../../../src/expectations/apply-known-failures.js'
import type { RunResult } from '../../../src/model/result.js'
import { createConsoleReporter } from '../../../src/report/console-reporter.js'
import type { Reporter } from '../../../src/report/reporter.js'
import { planOf, runResult, sampleRun, scenario, step, testScreen } from '../../fixtures/report/build-result.js'

async function play(reporter: Reporter, result: RunResult): Promise<void> {
  const plan = planOf(result)
  await reporter.onRunStart?.(plan)
  for (const each of result.scenarios) await reporter.onScenarioEnd?.(each)
  await reporter.onRunEnd?.(result, plan)
}

describe('console reporter', () => {
  it('prints one plain line per finished scenario when not on a TTY', async () => {
    const screen = testScreen({ isTTY: false })
    await play(createConsoleReporter({ screen }), sampleRun())
    const lines = screen.stdout().split('\n')
    expect(lines).toContain('✓ user-entry-point The entry point lists the user data sets (120ms)')
    expect(lines).toContain('✘ feed-page-size The feed honours pageSize & "quotes" <b> (120ms) [failed]')
    expect(lines).toContain('- revoked-feed A revoked token reads nothing (0ms) [skipped]: no --revoked-token given')
    expect(screen.stdout()).not.toContain('\r')
  })

  it('says when a pass needed polling (eventually), so a lagging feed is not a plain pass', async () => {
    const screen = testScreen({ isTTY: false })
    const polled = scenario({ id: 'lagging-feed', title: 'The feed lists a new activity', steps: [step({ name: 'the feed lists it', status: 'passed', attempts: 4 })] })
    await play(createConsoleReporter({ screen }), runResult([polled]))
    expect(screen.stdout()).toContain('✓ lagging-feed The feed lists a new activity (120ms) (passed after polling: "the feed lists it" 4 attempts)')
  })

  it('rewrites one progress line on a TTY and clears it before the summary', async () => {
    const screen = testScreen({ isTTY: true, width: 60 })
    await play(createConsoleReporter({ screen }), sampleRun())
    const out = screen.stdout()
    expect(out).toContain('\r1/6 scenarios, 0 failing')
    expect(out).toContain('\r6/6 scenarios, 3 failing')
    expect(out).not.toContain('✓ user-entry-point The entry point')
  })

  it('ends with the closing line CI parsers read', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen }), sampleRun())
    const lines = screen.stdout().trimEnd().split('\n')
    expect(lines.at(-1)).toBe('2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
    expect(lines.at(-1)).toMatch(/^\d+ passed, \d+ failed/)
  })

  it('lists failures with evidence first, then warnings, then skips with their reasons', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), sampleRun())
    const out = screen.stdout()
    const failures = out.indexOf('Failures (3)')
    const warnings = out.indexOf('Warnings (1)')
    const skipped = out.indexOf('Skipped (1)')
    const sections = out.indexOf('By spec section')
    expect(failures).toBeGreaterThanOrEqual(0)
    expect(failures).toBeLessThan(warnings)
    expect(warnings).toBeLessThan(skipped)
    expect(skipped).toBeLessThan(sections)
    // The evidence a newcomer needs: rule with its quote, expected against actual, transcript, curl.
    expect(out).toContain('error[E_CHECK_FAILED]: body.items: expected length 4, got 25')
    expect(out).toContain('= rule FEED-PAGE-SIZE (§4 rule 2): "When the pageSize parameter is given')
    expect(out).toContain('= expected: length 4')
    expect(out).toContain('= actual:   25')
    expect(out).toContain('GET http://127.0.0.1:4010/fitnessActivities?pageSize=4')
    expect(out).toContain('"size": 40,')
    expect(out).toContain('Authorization: Bearer $FITCONFORM_TOKEN')
    expect(out).toContain('error[E_TIMEOUT]: no response headers within 5000 ms')
    expect(out).toContain('- revoked-feed A revoked token reads nothing: no --revoked-token given')
    expect(out).toContain('warning[E_CHECK_FAILED]: feed item 2 carries startTime instead of start_time')
  })

  it('groups failures by the section of their first rule, in spec order', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), sampleRun())
    const out = screen.stdout()
    expect(out.indexOf('§4 endpoint 3\n✘ activity-read')).toBeGreaterThan(0)
    expect(out.indexOf('§4 endpoint 3\n')).toBeLessThan(out.indexOf('§4 rule 2\n'))
    expect(out).toMatch(/ {2}§2\.2 {11}1 passed, 1 warning\n/)
  })

  it('prints only the summary in summary mode', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), sampleRun())
    expect(screen.stdout()).not.toContain('✓ user-entry-point')
    expect(screen.stdout()).not.toContain('fitconform 6 scenarios')
  })

  it('colours only when the screen allows it', async () => {
    const plain = testScreen({ colors: false })
    await play(createConsoleReporter({ screen: plain }), sampleRun())
    expect(plain.stdout()).not.toContain('\u001b[')
    const coloured = testScreen({ colors: true })
    await play(createConsoleReporter({ screen: coloured }), sampleRun())
    expect(coloured.stdout()).toContain('\u001b[31m')
    expect(coloured.stdout().trimEnd().split('\n').at(-1)).toBe('2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
  })

  it('masks personal data unless asked to show it', async () => {
    const masked = testScreen()
    await play(createConsoleReporter({ screen: masked }), sampleRun())
    expect(masked.stdout()).not.toContain('Lovelace')
    const shown = testScreen()
    await play(createConsoleReporter({ screen: shown, showPersonalData: true }), sampleRun())
    expect(shown.stdout()).toContain('"name": "Ada Lovelace"')
  })

  it('prints diagnostics to stderr as they come', async () => {
    const screen = testScreen()
    await createConsoleReporter({ screen }).onDiagnostic?.({ code: 'E_REPORTER', kind: 'internal', message: 'reporter "html" failed in onRunEnd: disk full' })
    expect(screen.stderr()).toBe('error[E_REPORTER]: reporter "html" failed in onRunEnd: disk full\n')
  })

  it('says when nothing ran', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen }), runResult([], { durationMs: 40 }))
    expect(screen.stdout().trimEnd().split('\n').at(-1)).toBe('0 passed, 0 failed, 0 skipped, 0 warnings (0.0s)')
  })

  it('adds no note to a clean pass', async () => {
    const screen = testScreen()
    const result = runResult([scenario({ warnings: [] })])
    await play(createConsoleReporter({ screen }), result)
    expect(screen.stdout()).toContain('✓ user-entry-point The entry point lists the user data sets (120ms)\n')
  })
})

describe('console reporter with known failures', () => {
  it('lists known failures apart and flags the ones that now pass', async () => {
    const at = { file: 'known.yaml', line: 1, column: 3 }
    const result = applyKnownFailures(sampleRun(), [
      { scenario: 'activity-read', reason: 'staging is slow', link: 'https://tracker/3', at },
      { scenario: 'user-entry-point', reason: 'was broken', at },
    ])
    const screen = testScreen()
    await play(createConsoleReporter({ screen }), result)
    const out = screen.stdout()
    expect(out).toContain('✘ activity-read An activity can be read (120ms) [failed as expected]')
    expect(out).toContain('Unexpectedly passed (1)\n✘ user-entry-point The entry point lists the user data sets: passed, but is listed as a known failure (was broken); remove it from the list')
    expect(out).toContain('Known failures, not failing the run (1)\n✘ activity-read An activity can be read: staging is slow (https://tracker/3)')
    expect(out).not.toContain('error[E_TIMEOUT]')
    expect(out.trimEnd().split('\n').at(-1)).toBe('2 passed, 2 failed, 1 skipped, 1 warning, 1 expected failure, 1 unexpectedly passed (3.4s)')
  })
})
