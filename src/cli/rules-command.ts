import type { Rule, Scenario } from '../model/scenario.js'
import { loadSuites } from '../load/load-suites.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import type { Screen } from '../model/reporter.js'
import { EXIT } from '../shared/exit-codes.js'
import { builtInSuites } from '../api/run.js'
import { processScreen } from '../api/screen.js'

export interface RuleCoverage {
  readonly rule: Rule
  readonly scenarios: readonly string[]
}

/** Which scenarios cover each rule; client rules are checked by the proxy, not by scenarios. */
function ruleCoverage(rules: readonly Rule[], scenarios: readonly Scenario[]): RuleCoverage[] {
  return rules.map((rule) => ({
    rule,
    scenarios: scenarios.filter((scenario) => scenario.rules.includes(rule.id)).map((scenario) => scenario.id),
  }))
}

/** `fitconform rules`: the catalogue with covering scenarios; exit 1 when a server rule has none. */
export async function rulesCommand(
  paths: readonly string[],
  options: { json?: boolean },
  screen: Screen = processScreen(),
): Promise<number> {
  const loaded = await loadSuites(paths.length > 0 ? paths : [builtInSuites()])
  if (loaded.diagnostics.length > 0) {
    for (const diagnostic of loaded.diagnostics)
      screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
    return EXIT.usage
  }
  const coverage = ruleCoverage(loaded.rules, loaded.scenarios)
  const uncovered = coverage.filter(
    ({ rule, scenarios }) => rule.appliesTo === 'server' && !rule.retired && scenarios.length === 0,
  )
  if (options.json) {
    screen.out(
      JSON.stringify(
        coverage.map(({ rule, scenarios }) => ({
          id: rule.id,
          section: rule.section,
          quote: rule.quote,
          appliesTo: rule.appliesTo,
          irregularity: rule.irregularity,
          retired: rule.retired,
          scenarios,
        })),
        null,
        2,
      ) + '\n',
    )
  } else {
    for (const { rule, scenarios } of coverage) {
      const covered = rule.retired
        ? 'retired'
        : rule.appliesTo === 'client'
          ? 'checked by `fitconform proxy` (a client rule)'
          : scenarios.length > 0
            ? scenarios.join(', ')
            : 'NOT COVERED'
      screen.out(`${rule.id.padEnd(32)} ${rule.section.padEnd(24)} ${covered}\n    "${rule.quote}"\n`)
    }
    const serverRules = coverage.filter(({ rule }) => rule.appliesTo === 'server' && !rule.retired).length
    screen.out(
      `\n${serverRules - uncovered.length} of ${serverRules} server rules covered by scenarios; ${coverage.length - serverRules} client rules checked by the proxy\n`,
    )
  }
  return uncovered.length > 0 ? EXIT.failed : EXIT.ok
}
