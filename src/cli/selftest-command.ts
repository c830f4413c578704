import { loadSuites } from '../load/load-suites.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import { writeReportFile } from '../report/files/output-path.js'
import type { Screen } from '../model/reporter.js'
import { runSelftest, type SelftestRow } from '../selftest/run-selftest.js'
import { selftestTargets } from '../selftest/selftest-targets.js'
import { BLAME_BUDGET } from '../selftest/blame.js'
import { EXIT } from '../shared/exit-codes.js'
import { builtInSuites } from '../api/run.js'
import { processScreen } from '../api/screen.js'
import { RUN_DEFAULTS } from '../api/defaults.js'

export interface SelftestFlags {
  only?: string[]
  json?: string
  concurrency?: number
  timeout?: number
  /** Run the fuzz self-test instead (run-fuzz-selftest.ts). */
  fuzz?: boolean
  seed?: number
  seeds?: number
  runs?: number
}

/**
 * `fitconform selftest`: the suite against the conforming variants and every mutant; exit 1 on any
 * miss: a conforming server failed, a mutant survived, or a mutant was blamed on more than its rule
 * and BLAME_BUDGET others tied to it (selftest/blame.ts).
 */
export async function selftestCommand(
  paths: readonly string[],
  flags: SelftestFlags,
  screen: Screen = processScreen(),
): Promise<number> {
  const loaded = await loadSuites(paths.length > 0 ? paths : [builtInSuites()])
  if (loaded.diagnostics.length > 0) {
    for (const diagnostic of loaded.diagnostics)
      screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
    return EXIT.usage
  }
  if (flags.fuzz) return fuzzSelftestCommand(loaded, flags, screen)
  const targets = selftestTargets(flags.only)
  if (targets.length === 0) {
    screen.err(`--only matched no target; \`fitconform serve --list-mutants\` lists the mutants\n`)
    return EXIT.usage
  }
  screen.err(`self-test: ${loaded.scenarios.length} scenarios against ${targets.length} servers\n`)
  const started = Date.now()
  let done = 0
  const rows = await runSelftest(targets, loaded.scenarios, loaded.rules, {
    concurrency: flags.concurrency ?? 12,
    timeoutMs: flags.timeout ?? 5_000,
    onRow: (row) => screen.err(`  [${++done}/${targets.length}] ${row.target}: ${row.verdict}\n`),
  })
  screen.out(formatSelftestTable(rows, Date.now() - started))
  if (flags.json)
    await writeReportFile(
      { outputDir: '.', output: flags.json },
      'selftest.json',
      JSON.stringify({ score: score(rows), rows }, null, 2) + '\n',
    )
  return rows.every((row) => row.ok) ? EXIT.ok : EXIT.failed
}

export interface SelftestScore {
  /** Mutants a failed check tagged with their own rule killed. */
  readonly killed: number
  /** Of those, blamed on their own rule alone. */
  readonly blamedExactly: number
  /** Of those, blamed on their own rule and at most BLAME_BUDGET others tied to it by a section. */
  readonly withinBlameBudget: number
  readonly mutants: number
  readonly conformingPassed: number
  readonly conforming: number
}

export function score(rows: readonly SelftestRow[]): SelftestScore {
  const mutants = rows.filter((row) => row.expectation === 'fail')
  const conforming = rows.filter((row) => row.expectation !== 'fail')
  return {
    killed: mutants.filter((row) => row.killedForItsRule).length,
    blamedExactly: mutants.filter((row) => row.blame?.exact).length,
    withinBlameBudget: mutants.filter((row) => row.blame?.withinBudget).length,
    mutants: mutants.length,
    conformingPassed: conforming.filter((row) => row.ok).length,
    conforming: conforming.length,
  }
}

export function formatSelftestTable(rows: readonly SelftestRow[], durationMs: number): string {
  const lines: string[] = ['', 'Conforming servers (must pass; quirky --strict must fail only for IRREG-* rules)']
  for (const row of rows.filter((r) => r.expectation !== 'fail')) {
    lines.push(
      `  ${row.ok ? '✓' : '✘'} ${row.target.padEnd(36)} ${row.verdict}${row.ok || row.failedScenarios.length === 0 ? '' : `: ${row.failedScenarios.join(', ')}`}`,
    )
  }
  lines.push(
    '',
    `Mutants (each breaks one rule; the suite must fail for that rule and at most ${BLAME_BUDGET} others tied to it by a section)`,
  )
  lines.push(`  ${'mutant'.padEnd(38)} ${'rule'.padEnd(30)} killed by`)
  for (const row of rows.filter((r) => r.expectation === 'fail')) {
    const killers = row.failedScenarios.length === 0 ? 'SURVIVED' : row.failedScenarios.join(', ')
    lines.push(`  ${row.ok ? '✓' : '✘'} ${row.target.padEnd(36)} ${(row.rule ?? '').padEnd(30)} ${killers}`)
    if (row.failedScenarios.length > 0 && row.verdict !== 'killed') lines.push(`    ${row.verdict}`)
  }
  const s = score(rows)
  const percent = s.mutants === 0 ? 100 : Math.round((1000 * s.killed) / s.mutants) / 10
  lines.push(
    '',
    `Mutation score: ${s.killed}/${s.mutants} mutants killed (${percent}%); ${s.blamedExactly}/${s.mutants} blamed exactly, ${s.withinBlameBudget}/${s.mutants} within the blame budget; conforming servers: ${s.conformingPassed}/${s.conforming} as expected (${(durationMs / 1000).toFixed(1)}s)`,
    '',
  )
  return lines.join('\n')
}

/** `fitconform selftest --fuzz`: fixed-seed fuzzing of the conforming servers and the fuzz-only mutants. */
async function fuzzSelftestCommand(
  loaded: Awaited<ReturnType<typeof loadSuites>>,
  flags: SelftestFlags,
  screen: Screen,
): Promise<number> {
  const { runFuzzSelftest, DEFAULT_FUZZ_SELFTEST_SEEDS, DEFAULT_FUZZ_SELFTEST_RUNS, FUZZ_SELFTEST_MUTANT_RUNS } =
    await import('../selftest/run-fuzz-selftest.js')
  const seed = flags.seed ?? 1
  const seeds = flags.seeds ?? DEFAULT_FUZZ_SELFTEST_SEEDS
  const runs = flags.runs ?? DEFAULT_FUZZ_SELFTEST_RUNS
  screen.err(
    `fuzz self-test: each conforming server for seeds ${seed}–${seed + seeds - 1} (${runs} sequences a seed), each fuzz-only mutant for seed ${seed} (${FUZZ_SELFTEST_MUTANT_RUNS} sequences); the static suite against each mutant too\n`,
  )
  const started = Date.now()
  const rows = await runFuzzSelftest(loaded.scenarios, loaded.rules, {
    seed,
    seeds,
    runs,
    // As `fitconform fuzz` (10 s): a thousand sequences a mode meet a loaded machine's slow seconds.
    timeoutMs: flags.timeout ?? RUN_DEFAULTS.timeoutMs,
    outputDir: 'reports/selftest-fuzz',
    onRow: (row) => screen.err(`  ${row.target}: ${row.verdict}\n`),
  })
  const lines = ['', 'Conforming servers (fuzzing must find no failure)']
  for (const row of rows.filter((r) => r.expectation === 'pass'))
    lines.push(`  ${row.ok ? '✓' : '✘'} ${row.target.padEnd(36)} ${row.verdict}`)
  lines.push('', 'Fuzz-only mutants (the fuzzer must find each; the static suite is not expected to)')
  lines.push(`  ${'mutant'.padEnd(38)} ${'rule'.padEnd(30)} ${'static suite'.padEnd(14)} fuzz`)
  for (const row of rows.filter((r) => r.expectation === 'found')) {
    lines.push(
      `  ${row.ok ? '✓' : '✘'} ${row.target.padEnd(36)} ${(row.rule ?? '').padEnd(30)} ${(row.staticKilled ? 'killed' : 'survived').padEnd(14)} ${row.verdict}`,
    )
  }
  const mutants = rows.filter((r) => r.expectation === 'found')
  const conforming = rows.filter((r) => r.expectation === 'pass')
  lines.push(
    '',
    `Fuzz score: ${mutants.filter((r) => r.ok).length}/${mutants.length} fuzz-only mutants found (static suite: ${mutants.filter((r) => r.staticKilled).length}/${mutants.length}); conforming servers: ${conforming.filter((r) => r.ok).length}/${conforming.length} without failure (${((Date.now() - started) / 1000).toFixed(1)}s)`,
    '',
  )
  screen.out(lines.join('\n'))
  if (flags.json)
    await writeReportFile(
      { outputDir: '.', output: flags.json },
      'selftest-fuzz.json',
      JSON.stringify({ rows }, null, 2) + '\n',
    )
  return rows.every((row) => row.ok) ? EXIT.ok : EXIT.failed
}
