import type { Diagnostic } from '../../model/diagnostic.js'
import { chooseFarYear } from './far-year.js'
import { createLedger } from './ledger.js'
import { createOwnershipGate } from './ownership-gate.js'
import { createProfileGuard } from './profile-guard.js'
import type { RunContext } from '../run-context.js'

export interface GuardedRun {
  readonly context: RunContext
  /** Said in the run's summary: the far year the run moved off, because it held activities. */
  readonly notes: readonly string[]
}

/**
 * What every mode that writes (run, fuzz) sets up once the server answered and before the first
 * write (docs/safety.md): the ownership gate round the client, a far year whose days hold nothing,
 * the ledger (a line that cannot be written stops further writes, never the cleanup) and the
 * profile guard.
 */
export async function guardRun(
  base: RunContext,
  options: { readonly ledgerDir?: string; readonly writes: boolean },
): Promise<GuardedRun | { readonly problem: Diagnostic }> {
  const ownership = createOwnershipGate(base.baseUrl)
  const gated: RunContext = { ...base, client: ownership.guard(base.client), ownership }
  const notes: string[] = []
  let run = base.run
  if (options.writes) {
    const choice = await chooseFarYear(gated)
    if ('problem' in choice) {
      return {
        problem: {
          code: 'E_PREFLIGHT',
          kind: 'error',
          message: `no far year to write to: ${choice.problem}`,
          hint: 'run with --read-only on this account, or use an account without activities in those years',
        },
      }
    }
    if (choice.moved) notes.push(choice.moved)
    run = { ...run, farYear: choice.year }
  }
  const ledger = options.ledgerDir
    ? createLedger(options.ledgerDir, run.id, base.redact, (reason) =>
        ownership.stopWrites(`${reason}; no further change is sent, and what the run created is still deleted`),
      )
    : undefined
  ledger?.record({
    type: 'run',
    runId: run.id,
    marker: run.marker,
    farYear: run.farYear,
    target: base.baseUrl.toString(),
    at: new Date(run.now).toISOString(),
  })
  return {
    context: {
      ...gated,
      run,
      ledger,
      profiles: createProfileGuard({ ...gated, run, ledger }),
    },
    notes,
  }
}
