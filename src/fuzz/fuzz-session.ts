// What a fuzz run shares across its sequences: one HTTP client, the run's marker and far year, the
// cleanup ledger; and, at the end, the sweep of the run's marker. The calls into src/execute's ledger
// and undo live here only, so the fuzzer is as safe on a real account as `fitconform run`.
import type { Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary } from '../model/result.js'
import type { TokenRole } from '../model/scenario.js'
import { createHttpClient } from '../execute/http-client.js'
import { finishCleanup } from '../execute/finish-cleanup.js'
import { guardRun } from '../execute/guard-run.js'
import { createRedactor } from '../execute/redact.js'
import type { RunContext } from '../execute/run-context.js'
import { DEFAULT_CONFIG_VALUES } from '../spec/config-defaults.js'
import { preflight } from '../execute/preflight.js'
import { createRunValues } from '../execute/run-values.js'

export interface FuzzTarget {
  readonly baseUrl: URL
  readonly tokens: Readonly<Partial<Record<TokenRole, string>>>
  /** How reports name the target; never holds a token. */
  readonly label: string
}

export interface SessionSettings {
  readonly target: FuzzTarget
  readonly timeoutMs: number
  readonly insecure: boolean
  readonly ca?: string
  readonly configValues: Readonly<Record<string, string>>
  readonly interrupted?: AbortSignal
  /** Folder of the cleanup ledger; without it nothing is written down (the self-test's throwaway servers). */
  readonly ledgerDir?: string
}

export interface FuzzSession {
  readonly context: RunContext
  /** Sweeps the run's marker, closes the ledger when nothing is owed, says what changed. */
  finish(wrote: boolean): Promise<{ summary?: CleanupSummary; problems: Diagnostic[] }>
  close(): Promise<void>
}

/** Opens a session; `unreachable` when the preflight of `fitconform run` fails (exit code 3). */
export async function openSession(
  settings: SessionSettings,
): Promise<{ session: FuzzSession } | { unreachable: Diagnostic }> {
  const secrets = new Map<string, string>()
  for (const [role, token] of Object.entries(settings.target.tokens)) if (token) secrets.set(token, role)
  const client = createHttpClient({
    timeoutMs: settings.timeoutMs,
    insecure: settings.insecure,
    ...(settings.ca ? { ca: settings.ca } : {}),
  })
  const run = createRunValues(new Date())
  const base: RunContext = {
    baseUrl: settings.target.baseUrl,
    tokens: settings.target.tokens,
    client,
    timeoutMs: settings.timeoutMs,
    strict: false,
    run,
    config: { ...DEFAULT_CONFIG_VALUES, ...settings.configValues },
    redact: createRedactor(secrets),
    interrupted: settings.interrupted ?? new AbortController().signal,
  }
  const unreachable = await preflight(base)
  if (unreachable) {
    await client.close()
    return { unreachable }
  }
  const guarded = await guardRun(base, {
    ...(settings.ledgerDir ? { ledgerDir: settings.ledgerDir } : {}),
    writes: true,
  })
  if ('problem' in guarded) {
    await client.close()
    return { unreachable: guarded.problem }
  }
  const { context } = guarded
  return {
    session: {
      context,
      close: () => client.close(),
      // Only creates can leave something behind whose Location never reached us: the sweep runs when the fuzzer wrote.
      finish: (wrote) => finishCleanup(context, { wrote, posted: wrote, notes: guarded.notes }),
    },
  }
}
