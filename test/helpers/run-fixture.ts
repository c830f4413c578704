// How the integration tests run scenarios in-process: the settings they share (a test names only what
// it changes), the target, and the one check every caller makes that the run happened.
import type { DemoTokens } from '../../reference-server/index.js'
import { runConformance, type ConformanceOutcome, type ConformanceSettings } from '../../src/execute/run-conformance.js'
import { loadSuites, type LoadOutcome } from '../../src/load/load-suites.js'
import type { ReportedRunResult } from '../../src/model/reported-result.js'
import type { Reporter } from '../../src/model/reporter.js'
import { TOKEN_ROLES, type TokenRole } from '../../src/model/scenario.js'
import type { ConformanceTarget } from '../../src/session/run-session.js'

export type RunOverrides = Partial<Omit<ConformanceSettings, 'target'>>

/** What `fitconform run` does by default, but for a five-second timeout: writes included, nothing strict. */
export const TEST_RUN_SETTINGS = {
  filter: { readOnly: false },
  strict: false,
  concurrency: 4,
  timeoutMs: 5_000,
  bail: false,
  insecure: false,
  configValues: {},
} as const satisfies Omit<ConformanceSettings, 'target'>

/** The target at `baseUrl`; reports name it `label`. */
export function targetOf(
  baseUrl: string,
  tokens: ConformanceTarget['tokens'],
  label: string = baseUrl,
): ConformanceTarget {
  return { baseUrl: new URL(baseUrl), tokens, label }
}

const DEMO_TOKEN_OF: Record<TokenRole, keyof DemoTokens> = {
  token: 'token',
  'other-token': 'otherToken',
  'revoked-token': 'revokedToken',
  'revoked-delete-token': 'revokedDeleteToken',
  'limited-token': 'limitedToken',
}

/** The reference server's demo tokens under the roles given (all five unless named). */
export function demoTokensFor(
  tokens: DemoTokens,
  roles: readonly TokenRole[] = TOKEN_ROLES,
): Partial<Record<TokenRole, string>> {
  return Object.fromEntries(roles.map((role) => [role, tokens[DEMO_TOKEN_OF[role]]]))
}

/** Runs loaded scenarios against `target` with the shared settings and `overrides`. */
export function runLoaded(
  loaded: LoadOutcome,
  target: ConformanceTarget,
  overrides: RunOverrides = {},
  reporter: Reporter = {},
): Promise<ConformanceOutcome> {
  return runConformance(loaded.scenarios, loaded.rules, { ...TEST_RUN_SETTINGS, ...overrides, target }, reporter)
}

/** Loads the scenario files or folders at `paths` and runs them, as runLoaded. */
export async function runFixture(
  paths: string | readonly string[],
  target: ConformanceTarget,
  overrides: RunOverrides = {},
  reporter: Reporter = {},
): Promise<ConformanceOutcome> {
  return runLoaded(await loadSuites(typeof paths === 'string' ? [paths] : paths), target, overrides, reporter)
}

/** The run's result; throws, saying why, when no scenario ran. */
export function ranResult(outcome: ConformanceOutcome): ReportedRunResult {
  if (outcome.kind === 'ran') return outcome.result
  throw new Error(
    `expected a run, got ${outcome.kind}${outcome.kind === 'unreachable' ? `: ${outcome.diagnostic.message}` : ''}`,
  )
}
