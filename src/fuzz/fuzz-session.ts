// What a fuzz run shares across its sequences: one HTTP client, the run's marker and far year, the
// cleanup ledger; and, at the end, the sweep of the run's marker. The calls into src/execute's ledger
// and undo live here only, so the fuzzer is as safe on a real account as `fitconform run`.
import { randomBytes } from 'node:crypto'
import type { Diagnostic } from '../model/diagnostic.js'
import type { CleanupSummary } from '../model/result.js'
import type { TokenRole } from '../model/scenario.js'
import { createHttpClient } from '../execute/http-client.js'
import { countLedger, createLedger, readOpenWork } from '../execute/ledger.js'
import { createRedactor } from '../execute/redact.js'
import { DEFAULT_CONFIG_VALUES, type RunContext } from '../execute/run-context.js'
import { transportDiagnostic } from '../execute/transport-error.js'
import { sweepMarked } from '../execute/undo.js'

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

/** Opens a session; `unreachable` when nothing answers at the connection level (exit code 3). */
export async function openSession(settings: SessionSettings): Promise<{ session: FuzzSession } | { unreachable: Diagnostic }> {
  const secrets = new Map<string, string>()
  for (const [role, token] of Object.entries(settings.target.tokens)) if (token) secrets.set(token, role)
  const client = createHttpClient({ timeoutMs: settings.timeoutMs, insecure: settings.insecure, ...(settings.ca ? { ca: settings.ca } : {}) })
  const id = randomBytes(4).toString('hex')
  // The suite's own choice (run-conformance.ts): 1980–1999, quiet on any real account.
  const run = { id, marker: `fitconform-run-${id}`, farYear: 1980 + (parseInt(id.slice(0, 4), 16) % 20), now: Date.now() }
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
  const url = base.baseUrl.toString()
  try {
    await client.send({ method: 'GET', url, headers: {}, wire: false })
  } catch (error) {
    const diagnostic = transportDiagnostic(error, url, settings.timeoutMs)
    if (diagnostic.code === 'E_CONNECT') {
      await client.close()
      return { unreachable: { ...diagnostic, code: 'E_UNREACHABLE', message: `the server under test cannot be reached: ${diagnostic.message}` } }
    }
  }
  const ledger = settings.ledgerDir ? createLedger(settings.ledgerDir, run.id) : undefined
  ledger?.record({ type: 'run', runId: run.id, marker: run.marker, farYear: run.farYear, target: url, at: new Date(run.now).toISOString() })
  const context: RunContext = { ...base, ...(ledger ? { ledger } : {}) }
  return {
    session: {
      context,
      close: () => client.close(),
      async finish(wrote) {
        if (!wrote) {
          ledger?.record({ type: 'closed' })
          return { problems: [] }
        }
        const sweep = await sweepMarked(context, ['token'], run.marker, run.farYear)
        const problems: Diagnostic[] = sweep.problems.map((message) => ({ code: 'E_CLEANUP', kind: 'error', message }))
        if (!ledger) return { problems }
        const open = readOpenWork(ledger.file)
        const owes = open.toDelete.length > 0 || open.toRestore.length > 0
        if (!owes) ledger.record({ type: 'closed' })
        return { summary: { ...countLedger(ledger.file), swept: sweep.swept, ...(owes ? { openLedger: ledger.file } : {}) }, problems }
      },
    },
  }
}
