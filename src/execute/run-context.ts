import type { AuthChoice, TokenRole } from '../model/scenario.js'
import type { HttpClient } from './http/http-exchange.js'
import type { Ledger } from './safety/ledger.js'
import type { OwnershipGate } from './safety/ownership-gate.js'
import type { ProfileGuard } from './safety/profile-guard.js'
import type { Redactor } from './finalize/redact.js'
import { isNearMiss, nearMissToken } from './http/near-miss-token.js'

/** Per-run values scenarios can read as `run.*` (docs/scenario-format.md). */
export interface RunValues {
  readonly id: string
  /** Put in `notes` of everything the suite creates, so a lost create can still be found and removed. */
  readonly marker: string
  /** A far-past year: a quiet date range on any real account. */
  readonly farYear: number
  readonly now: number
}

/** Everything a scenario needs from the run, handed down explicitly (no globals). */
export interface RunContext {
  readonly baseUrl: URL
  readonly tokens: Readonly<Partial<Record<TokenRole, string>>>
  readonly client: HttpClient
  readonly timeoutMs: number
  readonly strict: boolean
  readonly run: RunValues
  readonly config: Readonly<Record<string, string>>
  readonly redact: Redactor
  /** Aborted on SIGINT/SIGTERM: no new step starts, cleanup still runs. */
  readonly interrupted: AbortSignal
  /**
   * Every write passes it (its guard wraps `client`): only what the run proved its own is changed.
   * Absent only in tools that send no write.
   */
  readonly ownership?: OwnershipGate
  /** Reads every user's profile before the run's first profile write, and sets back what differs at the end. */
  readonly profiles?: ProfileGuard
  /** Where every change is written down before the scenario moves on (absent in dry tools). */
  readonly ledger?: Ledger
  /** Runs a clock wait with the scenario's concurrency slot given up (shared/worker-pool.ts); absent: the wait keeps it. */
  readonly park?: <T>(wait: () => Promise<T>) => Promise<T>
}

export function authorizationFor(auth: AuthChoice, context: RunContext): string | undefined {
  if (auth === 'none') return undefined
  if (auth === 'invalid') return `Bearer fitconform-invalid-${context.run.id}`
  if (isNearMiss(auth))
    return context.tokens.token === undefined ? undefined : `Bearer ${nearMissToken(context.tokens.token, auth)}`
  const token = context.tokens[auth]
  return token === undefined ? undefined : `Bearer ${token}`
}
