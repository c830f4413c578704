import type { Scenario, TokenRole } from '../model/scenario.js'
import type { GrepFilter } from './grep-filter.js'

export interface Shard {
  /** 1-based, as users write it: --shard 2/4. */
  readonly index: number
  readonly total: number
}

export interface RunFilter {
  /** Matches ids and titles in linear time (grep-filter.ts); a RegExp fits too, for callers that trust their pattern. */
  readonly grep?: GrepFilter
  readonly tags?: readonly string[]
  readonly shard?: Shard
  readonly readOnly: boolean
  readonly availableRoles: ReadonlySet<TokenRole>
}

export interface SkippedScenario {
  readonly scenario: Scenario
  readonly reason: string
  /** The token roles whose absence skipped it (the flags that would run it). */
  readonly missingRoles?: readonly TokenRole[]
}

export interface RunPlan {
  /** Need a quiet account: run one at a time, before anything else (nothing of ours writes meanwhile). */
  readonly exclusive: readonly Scenario[]
  /**
   * Independent of each other (own far-past dates, own resources): run with bounded concurrency, the
   * ones that wait longest first (so a long wait does not start last and end the run late).
   */
  readonly concurrent: readonly Scenario[]
  /** Selected but not runnable here, each with the reason a user can act on. */
  readonly skipped: readonly SkippedScenario[]
  /** Every selected scenario in load order: reports list results in this order whatever finished first. */
  readonly order: readonly Scenario[]
}

/** Selects, shards and groups scenarios. Pure: the same input always gives the same plan. */
export function planRun(scenarios: readonly Scenario[], filter: RunFilter): RunPlan {
  const selected = scenarios.filter((scenario) => matchesFilter(scenario, filter))
  const sharded = filter.shard
    ? selected.filter((_, position) => position % filter.shard!.total === filter.shard!.index - 1)
    : selected
  const exclusive: Scenario[] = []
  const concurrent: Scenario[] = []
  const skipped: SkippedScenario[] = []
  // The plan is kept for the whole run: scenarios skipped for the same reason share its text and roles.
  const skips = new Map<string, Omit<SkippedScenario, 'scenario'>>()
  for (const scenario of sharded) {
    const reason = skipReason(scenario, filter)
    if (!reason) {
      ;(scenario.exclusive ? exclusive : concurrent).push(scenario)
      continue
    }
    let skip = skips.get(reason)
    if (!skip) {
      const missingRoles =
        filter.readOnly && scenario.writes ? [] : scenario.tokens.filter((role) => !filter.availableRoles.has(role))
      skip = { reason, ...(missingRoles.length > 0 ? { missingRoles } : {}) }
      skips.set(reason, skip)
    }
    skipped.push({ scenario, ...skip })
  }
  return { exclusive, concurrent: longestWaitFirst(concurrent), skipped, order: sharded }
}

/** A clock wait (`untilServerDateAfter`) lasts until the server's next second: up to a second, plus its margin. */
const CLOCK_WAIT_ESTIMATE_MS = 1000

/** How long a scenario's steps wait by declaration: `wait:` as written, each clock wait as up to a second. */
export function declaredWaitMs(scenario: Scenario): number {
  let total = 0
  for (const step of scenario.steps)
    total += (step.waitMs ?? 0) + (step.untilServerDateAfter !== undefined ? CLOCK_WAIT_ESTIMATE_MS : 0)
  return total
}

/** Stable: scenarios that wait the same keep their load order. */
function longestWaitFirst(scenarios: readonly Scenario[]): Scenario[] {
  return scenarios
    .map((scenario, position) => ({ scenario, position, waitMs: declaredWaitMs(scenario) }))
    .sort((a, b) => b.waitMs - a.waitMs || a.position - b.position)
    .map(({ scenario }) => scenario)
}

function matchesFilter(scenario: Scenario, filter: RunFilter): boolean {
  if (filter.grep && !filter.grep.test(scenario.id) && !filter.grep.test(scenario.title)) return false
  if (filter.tags && filter.tags.length > 0 && !filter.tags.some((tag) => scenario.tags.includes(tag))) return false
  return true
}

function skipReason(scenario: Scenario, filter: RunFilter): string | undefined {
  if (filter.readOnly && scenario.writes) return 'changes data, and --read-only is set'
  const missing = scenario.tokens.filter((role) => !filter.availableRoles.has(role))
  if (missing.length > 0) {
    return `needs ${missing.map((role) => `--${role}`).join(' and ')} (or ${missing.map(envVarOfRole).join(', ')})`
  }
  return undefined
}

export function envVarOfRole(role: TokenRole): string {
  return `FITCONFORM_${role.toUpperCase().replace(/-/g, '_')}`
}
