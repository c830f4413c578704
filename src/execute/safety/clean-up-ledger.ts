import type { TokenRole } from '../../model/scenario.js'
import { DEFAULT_CONFIG_VALUES } from '../../spec/config-defaults.js'
import { createHttpClient } from '../http/http-client.js'
import { createBusyBudget, retryingWhileBusy } from '../http/busy-retry.js'
import { openLedger, type OpenWork } from './ledger.js'
import { createOwnershipGate } from './ownership-gate.js'
import type { Redactor } from '../finalize/redact.js'
import type { RunContext } from '../run-context.js'
import { undoOpenWork, type UndoOutcome } from './undo.js'

export interface LedgerCleanupSettings {
  /** The server the user names; a ledger's own target is never trusted. */
  readonly baseUrl: URL
  readonly tokens: Readonly<Partial<Record<TokenRole, string>>>
  readonly timeoutMs: number
  readonly insecure: boolean
  readonly ca?: string
  readonly redact: Redactor
}

/**
 * `fitconform cleanup` for one open ledger: undoes what it still owes, under the given base URL only,
 * and removes the ledger when nothing is left (nothing refused, left behind or failed).
 */
export async function cleanUpLedger(
  work: OpenWork,
  settings: LedgerCleanupSettings,
): Promise<{ readonly outcome: UndoOutcome; readonly clean: boolean }> {
  // A busy answer to a cleanup read or delete is resent the way a run resends it (busy-retry.ts).
  const raw = retryingWhileBusy(
    createHttpClient({
      timeoutMs: settings.timeoutMs,
      insecure: settings.insecure,
      ca: settings.ca,
    }),
    createBusyBudget(),
    { perRequestMs: settings.timeoutMs },
  )
  const ledger = openLedger(work.file, settings.redact)
  // Nothing is admitted until a read proves it the run's own (undo.ts): a ledger line alone opens no write.
  const ownership = createOwnershipGate(settings.baseUrl)
  const client = ownership.guard(raw)
  const context: RunContext = {
    baseUrl: settings.baseUrl,
    tokens: settings.tokens,
    client,
    ownership,
    timeoutMs: settings.timeoutMs,
    strict: false,
    // readOpenWork keeps a run line only with a run-shaped marker and a far year in range; without one nothing is swept.
    run: {
      id: work.run?.runId ?? 'unknown',
      marker: work.run?.marker ?? '',
      farYear: work.run?.farYear ?? 0,
      now: Date.now(),
    },
    config: DEFAULT_CONFIG_VALUES,
    redact: settings.redact,
    interrupted: new AbortController().signal,
    ledger,
  }
  try {
    const outcome = await undoOpenWork(work, context)
    const clean =
      outcome.problems.length === 0 &&
      outcome.notProvenOurs.length === 0 &&
      outcome.leftBehind.length === 0 &&
      work.refusedLines.length === 0
    if (clean) ledger.close()
    return { outcome, clean }
  } finally {
    await raw.close()
  }
}
