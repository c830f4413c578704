import { describe, expect, it, vi } from 'vitest'
import type { KnownFailure } from '../../../src/known-failures/known-failures.js'
import type { RunResult } from '../../../src/model/result.js'
import { createConsoleReporter } from '../../../src/report/console-reporter.js'
import type { Reporter } from '../../../src/model/reporter.js'
import {
  assertion,
  planOf,
  reported,
  runResult,
  sampleRun,
  scenario,
  step,
  testScreen,
} from '../../fixtures/report/build-result.js'

async function play(
  reporter: Reporter,
  result: RunResult,
  options: { known?: readonly KnownFailure[]; showPersonalData?: boolean } = {},
): Promise<void> {
  const plan = planOf(result)
  const final = reported(result, options)
  await reporter.onRunStart?.(plan)
  for (const each of final.scenarios) await reporter.onScenarioEnd?.(each)
  await reporter.onRunEnd?.(final, plan)
}

describe('console reporter', () => {
  it('without a TTY, prints a line for each scenario that did not simply pass, and every scenario under --verbose', async () => {
    const screen = testScreen({ isTTY: false })
    await play(createConsoleReporter({ screen }), sampleRun())
    const lines = screen.stdout().split('\n')
    expect(lines).not.toContain('✓ user-entry-point The entry point lists the user data sets (120ms)')
    expect(lines).toContain('✘ feed-page-size The feed honours pageSize & "quotes" <b> (120ms) [failed]')
    expect(lines).toContain('- revoked-feed A revoked token reads nothing (0ms) [skipped]: no --revoked-token given')
    expect(screen.stdout()).not.toContain('\r')
    const verbose = testScreen({ isTTY: false })
    await play(createConsoleReporter({ screen: verbose, verbose: true }), sampleRun())
    expect(verbose.stdout().split('\n')).toContain(
      '✓ user-entry-point The entry point lists the user data sets (120ms)',
    )
  })

  it('without a TTY, says at least every 5 s what is running and for how long, then that it is cleaning up', async () => {
    vi.useFakeTimers()
    try {
      let clock = 0
      const screen = testScreen({ isTTY: false })
      const reporter = createConsoleReporter({ screen, clock: () => clock })
      const result = runResult([scenario({ id: 'slow-feed' }), scenario({ id: 'other' })])
      await reporter.onRunStart?.(planOf(result))
      await reporter.onScenarioStart?.({ id: 'slow-feed', title: 't', file: 'f', rules: [], tags: [] })
      clock = 5_000
      vi.advanceTimersByTime(5_000)
      expect(screen.stdout()).toContain('… 0/2 scenarios done, 5.0s elapsed; running slow-feed\n')
      const final = reported(result)
      for (const each of final.scenarios) await reporter.onScenarioEnd?.(each)
      expect(screen.stdout()).toContain(
        '… scenarios done; cleaning up: deleting what the run created and sweeping for its marker (5.0s elapsed)\n',
      )
      await reporter.onRunEnd?.(final, planOf(result))
      const before = screen.stdout()
      vi.advanceTimersByTime(20_000)
      expect(screen.stdout()).toBe(before) // the heartbeat stops with the run
    } finally {
      vi.useRealTimers()
    }
  })

  it('says when a pass needed polling (eventually), so a lagging feed is not a plain pass', async () => {
    const screen = testScreen({ isTTY: false })
    const polled = scenario({
      id: 'lagging-feed',
      title: 'The feed lists a new activity',
      steps: [step({ name: 'the feed lists it', status: 'passed', attempts: 4 })],
    })
    await play(createConsoleReporter({ screen, verbose: true }), runResult([polled]))
    expect(screen.stdout()).toContain(
      '✓ lagging-feed The feed lists a new activity (120ms) (passed after polling: "the feed lists it" 4 attempts)',
    )
  })

  it('rewrites one progress line on a TTY, with the elapsed time and an estimate, and clears it before the summary', async () => {
    let clock = 0
    const screen = testScreen({ isTTY: true, width: 100 })
    const reporter = createConsoleReporter({ screen, clock: () => clock })
    const result = sampleRun()
    const final = reported(result)
    await reporter.onRunStart?.(planOf(result))
    for (const each of final.scenarios) {
      clock += 1_000
      await reporter.onScenarioEnd?.(each)
    }
    await reporter.onRunEnd?.(final, planOf(result))
    const out = screen.stdout()
    expect(out).toContain('\r1/6 scenarios, 0 failing, 1.0s, about 5.0s left')
    expect(out).toContain('\r6/6 scenarios, 3 failing, 6.0s  scenarios done; cleaning up')
    expect(out).not.toContain('✓ user-entry-point The entry point')
  })

  it('ends with the closing line CI parsers read', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen }), sampleRun())
    const lines = screen.stdout().trimEnd().split('\n')
    expect(lines.at(-1)).toBe('2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
    expect(lines.at(-1)).toMatch(/^\d+ passed, \d+ failed/)
  })

  it('starts with failures by rule, one example each, then steps outside any rule, warnings and skips', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), sampleRun())
    const out = screen.stdout()
    const byRule = out.indexOf('Failures by rule (2 rules broken)')
    const outside = out.indexOf('Failed outside any rule (2 steps)')
    const warnings = out.indexOf('Warnings (1)')
    const skipped = out.indexOf('Skipped (1)')
    const sections = out.indexOf('By spec section')
    expect(byRule).toBe(1)
    expect(byRule).toBeLessThan(outside)
    expect(outside).toBeLessThan(warnings)
    expect(warnings).toBeLessThan(skipped)
    expect(skipped).toBeLessThan(sections)
    // Each broken rule: id, section, how many scenarios, its quote, then one example with evidence.
    expect(out).toContain('✘ FEED-PAGE-SIZE (§4 rule 2): broken in 1 scenario (feed-page-size)')
    expect(out).toContain('"When the pageSize parameter is given')
    expect(out).toContain('error[E_CHECK_FAILED]: body.items: expected length 4, got 25')
    expect(out).toContain('= expected: length 4')
    expect(out).toContain('= actual:   25')
    expect(out).toContain('request: GET http://127.0.0.1:4010/fitnessActivities?pageSize=4')
    expect(out).toContain('"size": 40,')
    expect(out).toContain('Authorization: Bearer $FITCONFORM_TOKEN')
    // A check filed under no rule and a timeout are listed apart, never blamed on a rule.
    expect(out).toContain(
      '✘ activity-read, step 1 "read the activity" could not be judged: no response headers within 5000 ms',
    )
    expect(out).not.toContain('✘ ACTIVITY-READ')
    expect(out).toContain('- revoked-feed: no --revoked-token given')
    expect(out).toContain(
      '! FEED-ITEM-START-TIME-IRREGULAR: 1 in 1 scenario, e.g. feed item 2 carries startTime instead of start_time',
    )
  })

  it('prints every failure with its full evidence under --verbose', async () => {
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary', verbose: true }), sampleRun())
    const out = screen.stdout()
    expect(out).toContain('Every failure (3 scenarios)')
    expect(out.indexOf('§4 endpoint 3\n✘ activity-read')).toBeGreaterThan(0)
    expect(out).toContain('error[E_TIMEOUT]: no response headers within 5000 ms')
    expect(out).toContain('- revoked-feed A revoked token reads nothing: no --revoked-token given')
    expect(out).toContain('warning[E_CHECK_FAILED]: feed item 2 carries startTime instead of start_time')
  })

  it("counts a failure under the section of the rule it broke, not the scenario's own section", async () => {
    // An activity read (§4 endpoint 3) that breaks has_map (§2.2): a §2.2 failure; a passing one stays under §4 endpoint 3.
    const brokenHasMap = step({
      status: 'failed',
      assertions: [
        assertion(),
        assertion({ ok: false, rules: ['FEED-ITEM-HAS-MAP-TEXT'], message: 'has_map must be text' }),
      ],
    })
    const result = runResult([
      scenario({
        id: 'activity-read-broken',
        status: 'failed',
        rules: ['ACTIVITY-READ', 'FEED-ITEM-HAS-MAP-TEXT'],
        steps: [brokenHasMap],
      }),
      scenario({ id: 'activity-read-ok', rules: ['ACTIVITY-READ'] }),
    ])
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), result)
    const table = screen.stdout().split('By spec section\n')[1]?.split('\n\n')[0]
    expect(table).toBe('  §2.2           1 failed\n  §4 endpoint 3  1 passed')
  })

  it('states the rule coverage line before the closing line', async () => {
    const screen = testScreen()
    await play(
      createConsoleReporter({ screen, mode: 'summary' }),
      runResult([
        scenario({
          id: 'user-read',
          rules: ['USER-READ'],
          steps: [step({ assertions: [assertion({ rules: ['USER-READ'] })] })],
        }),
      ]),
    )
    const lines = screen.stdout().trimEnd().split('\n')
    expect(lines.at(-3)).toBe('Rule coverage: 1 of 6 rules covered (1 passed); 5 not covered')
  })

  it('keeps one broken rule within 40 lines, however many scenarios and checks broke it', async () => {
    const items = Array.from({ length: 200 }, (_, index) => ({ uri: `/fitnessActivities/${index}`, has_map: true }))
    const broken = Array.from({ length: 30 }, (_, index) =>
      scenario({
        id: `feed-${index}`,
        rules: ['FEED-ITEM-HAS-MAP-TEXT'],
        steps: [
          step({
            response: {
              status: 200,
              headers: { 'content-type': 'application/json' },
              body: { items },
              bodyBytes: 9000,
            },
            assertions: Array.from({ length: 5 }, (_, check) =>
              assertion({
                ok: false,
                rules: ['FEED-ITEM-HAS-MAP-TEXT'],
                target: `body.items[${check}].has_map`,
                matcher: 'schema',
                expected: 'FitnessActivityFeed',
                actual: undefined,
                message: `check ${check} failed`,
              }),
            ),
          }),
        ],
      }),
    )
    const screen = testScreen()
    await play(createConsoleReporter({ screen, mode: 'summary' }), runResult(broken))
    const out = screen.stdout()
    const block = out.slice(out.indexOf('✘ FEED-ITEM-HAS-MAP-TEXT'), out.indexOf('By spec section'))
    expect(block).toContain('broken in 30 scenarios (feed-0, feed-1, feed-2 and 27 more)')
    expect(block.trimEnd().split('\n').length).toBeLessThanOrEqual(40)
  })

  it('names the missing token flags at the top and the bottom, and says when most of the run was skipped', async () => {
    const screen = testScreen()
    const result = runResult([
      scenario(),
      ...['a', 'b', 'c'].map((id) =>
        scenario({ id, status: 'skipped', skipReason: 'needs --other-token (or FITCONFORM_OTHER_TOKEN)', steps: [] }),
      ),
    ])
    const reporter = createConsoleReporter({ screen, mode: 'summary' })
    const plan = {
      ...planOf(result),
      missingTokens: [
        { flag: '--other-token', env: 'FITCONFORM_OTHER_TOKEN', scenarios: 3, cells: 0, rules: ['USER-ISOLATION'] },
      ],
    }
    await reporter.onRunStart?.(plan)
    await reporter.onRunEnd?.(reported(result), plan)
    const lines = screen.stdout().trimEnd().split('\n')
    expect(lines[0]).toBe('NOT TESTED: what the tokens not given leave untested')
    expect(lines[1]).toBe(
      '  --other-token (or FITCONFORM_OTHER_TOKEN) not given: 3 scenarios skipped; rules left untested: USER-ISOLATION',
    )
    expect(lines.at(-3)).toBe(lines[1])
    expect(lines.at(-1)).toBe(
      '1 passed, 0 failed, 3 skipped, 0 warnings (3.4s) — more than half of the scenarios were skipped, so most of the spec was not tested',
    )
    expect(screen.stdout()).toContain('- 3 scenarios (a, b, c): needs --other-token (or FITCONFORM_OTHER_TOKEN)')
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
    await play(createConsoleReporter({ screen: shown, verbose: true }), sampleRun(), { showPersonalData: true })
    expect(shown.stdout()).toContain('"name": "Ada Lovelace"')
  })

  it('prints diagnostics to stderr as they come', async () => {
    const screen = testScreen()
    await createConsoleReporter({ screen }).onDiagnostic?.({
      code: 'E_REPORTER',
      kind: 'internal',
      message: 'reporter "html" failed in onRunEnd: disk full',
    })
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
    await play(createConsoleReporter({ screen, verbose: true }), result)
    expect(screen.stdout()).toContain('✓ user-entry-point The entry point lists the user data sets (120ms)\n')
  })
})

describe('console reporter with known failures', () => {
  it('lists known failures apart and flags the ones that now pass', async () => {
    const at = { file: 'known.yaml', line: 1, column: 3 }
    const known = [
      { scenario: 'activity-read', reason: 'staging is slow', link: 'https://tracker/3', at },
      { scenario: 'user-entry-point', reason: 'was broken', at },
    ]
    const screen = testScreen()
    await play(createConsoleReporter({ screen }), sampleRun(), { known })
    const out = screen.stdout()
    expect(out).toContain('✘ activity-read An activity can be read (120ms) [failed as expected]')
    expect(out).toContain(
      'Unexpectedly passed (1)\n✘ user-entry-point The entry point lists the user data sets: passed, but is listed as a known failure (was broken); remove it from the list',
    )
    expect(out).toContain(
      'Known failures, not failing the run (1)\n✘ activity-read An activity can be read: staging is slow (https://tracker/3)',
    )
    expect(out).not.toContain('error[E_TIMEOUT]')
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      '2 passed, 2 failed, 1 skipped, 1 warning, 1 expected failure, 1 unexpectedly passed (3.4s)',
    )
  })
})
