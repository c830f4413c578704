// One run session for every mode that sends the suite's requests (`run`, `fuzz`, the self-test through both):
// the HTTP client, the run's values, the context scenarios read, the preflight, the ledger and the profile
// guard (guardRun), and at the end the cleanup and the client's close. Each mode opens it here, so what makes
// a run safe on a real account is set up in one place.
import type { Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary } from '../model/result.js'
import type { TokenRole } from '../model/scenario.js'
import { createBusyBudget, retryingWhileBusy, type BusyBudget } from '../execute/http/busy-retry.js'
import { finishCleanup } from '../execute/safety/finish-cleanup.js'
import { guardRun } from '../execute/safety/guard-run.js'
import { createHttpClient } from '../execute/http/http-client.js'
import { nearMissSecrets } from '../execute/http/near-miss-token.js'
import { checkRestrictedTokens, preflight } from '../execute/preflight.js'
import { createRedactor } from '../execute/finalize/redact.js'
import type { RunContext, RunValues } from '../execute/run-context.js'
import { createRunValues } from '../execute/run-values.js'
import { createPollingBudget, type PollingBudget } from '../execute/step/step-polling.js'
import { DEFAULT_CONFIG_VALUES } from '../spec/config-defaults.js'

/** The server a run, a fuzz run or a self-test round sends to. */
export interface ConformanceTarget {
  readonly baseUrl: URL
  readonly tokens: Readonly<Partial<Record<TokenRole, string>>>
  /** How reports name the target; never holds a token. */
  readonly label: string
}

export interface SessionSettings {
  readonly target: ConformanceTarget
  readonly timeoutMs: number
  readonly insecure: boolean
  readonly ca?: string
  /** --max-body-bytes: a response body past it blocks its step (absent: the client's default). */
  readonly maxBodyBytes?: number
  readonly configValues: Readonly<Record<string, string>>
  /** Aborted on SIGINT/SIGTERM: no new step starts, cleanup still runs. */
  readonly interrupted?: AbortSignal
  /** Folder of the cleanup ledger; without it nothing is written down (the self-test's throwaway servers). */
  readonly ledgerDir?: string
}

export interface SessionOptions {
  /** When the run starts: the run values' clock. */
  readonly startedAt: Date
  /** §2.2 irregularities fail instead of warn (`run --strict`). */
  readonly strict?: boolean
  /** The run's id, marker and far year; absent: new ones. */
  readonly run?: RunValues
  /** Whether the run may write: only then is a far year chosen and the ledger opened. */
  readonly writes: boolean
  /**
   * The suite's mode: the client waits out a busy server, near-miss tokens are redacted, restricted tokens
   * are checked, and `eventually` steps share a polling budget.
   */
  readonly suite?: { readonly maxPollingMs: number }
}

export interface RunSession {
  readonly context: RunContext
  /** What the restricted-token check found (suite mode only). */
  readonly notices: readonly Diagnostic[]
  /** How often the server answered busy (suite mode only). */
  readonly busy?: BusyBudget
  /** The polling budget `eventually` steps share (suite mode only); the step loop is handed it. */
  readonly polling?: PollingBudget
  /** Sweeps the run's marker, closes the ledger when nothing is owed, says what changed. */
  finish(what: {
    readonly wrote: boolean
    readonly posted: boolean
  }): Promise<{ summary?: CleanupSummary; problems: Diagnostic[] }>
  close(): Promise<void>
}

/** Opens a session; `unreachable` when the preflight fails (exit code 3). The caller closes an opened session. */
export async function openRunSession(
  settings: SessionSettings,
  options: SessionOptions,
): Promise<{ readonly session: RunSession } | { readonly unreachable: Diagnostic }> {
  const { target } = settings
  const secrets = new Map<string, string>()
  for (const [role, token] of Object.entries(target.tokens)) if (token) secrets.set(token, role)
  // The near misses the auth scenarios send hold all but one character of the main token.
  if (options.suite && target.tokens.token)
    for (const [value, label] of nearMissSecrets(target.tokens.token, 'token'))
      if (!secrets.has(value)) secrets.set(value, label)
  const plain = createHttpClient({
    timeoutMs: settings.timeoutMs,
    insecure: settings.insecure,
    ca: settings.ca,
    maxBodyBytes: settings.maxBodyBytes,
  })
  const busy = options.suite ? createBusyBudget() : undefined
  const client = busy ? retryingWhileBusy(plain, busy, { perRequestMs: settings.timeoutMs }) : plain
  const base: RunContext = {
    baseUrl: target.baseUrl,
    tokens: target.tokens,
    client,
    timeoutMs: settings.timeoutMs,
    strict: options.strict ?? false,
    run: options.run ?? createRunValues(options.startedAt),
    config: { ...DEFAULT_CONFIG_VALUES, ...settings.configValues },
    redact: createRedactor(secrets),
    interrupted: settings.interrupted ?? new AbortController().signal,
  }
  const refused = async (diagnostic: Diagnostic): Promise<{ readonly unreachable: Diagnostic }> => {
    await client.close()
    return { unreachable: diagnostic }
  }
  let notices: Diagnostic[] = []
  let guarded: Awaited<ReturnType<typeof guardRun>>
  try {
    const unreachable = await preflight(base)
    if (unreachable) return await refused(unreachable)
    if (options.suite) notices = await checkRestrictedTokens(base)
    // Only now, with a server there, is there anything to write down.
    guarded = await guardRun(base, { ledgerDir: settings.ledgerDir, writes: options.writes })
  } catch (error) {
    await client.close()
    throw error
  }
  if ('problem' in guarded) return refused(guarded.problem)
  const { notes } = guarded
  const { context } = guarded
  return {
    session: {
      context,
      notices,
      busy,
      polling: options.suite ? createPollingBudget(options.suite.maxPollingMs) : undefined,
      finish: (what) => finishCleanup(context, { ...what, notes }),
      close: () => client.close(),
    },
  }
}
