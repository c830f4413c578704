import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AuthChoice } from '../model/scenario.js'

/**
 * The cleanup ledger: one JSON line per change the suite makes, appended synchronously before the
 * scenario moves on, so a run killed at any point leaves a complete account of what to undo.
 * Only roles are stored, never tokens. `fitconform cleanup` replays what is still open.
 *
 *   {"type":"run","runId":"3fa1c2d0","marker":"fitconform-run-3fa1c2d0","farYear":1991,"target":"https://…","at":"…"}
 *   {"type":"created","url":"https://…/fitnessActivities/77","role":"token","scenario":"activity-lifecycle"}
 *   {"type":"restore","scenario":"profile-edit","requests":[{"method":"PUT","url":"…/profile","role":"token","headers":{…},"body":"{…}"}]}
 *   {"type":"deleted","url":"https://…/fitnessActivities/77"}
 *   {"type":"restored","scenario":"profile-edit"}
 *   {"type":"closed"}
 */
export type LedgerEntry =
  | { type: 'run'; runId: string; marker: string; farYear: number; target: string; at: string }
  | { type: 'created'; url: string; role: AuthChoice; scenario: string }
  | { type: 'deleted'; url: string }
  | { type: 'restore'; scenario: string; requests: RestoreRequest[] }
  | { type: 'restored'; scenario: string }
  | { type: 'closed' }

export interface RestoreRequest {
  method: string
  url: string
  role: AuthChoice
  headers: Record<string, string>
  body?: string
}

export interface Ledger {
  readonly file: string
  record(entry: LedgerEntry): void
}

export const LEDGER_PREFIX = 'ledger-'

export function createLedger(outputDir: string, runId: string): Ledger {
  mkdirSync(outputDir, { recursive: true })
  return openLedger(join(outputDir, `${LEDGER_PREFIX}${runId}.ndjson`))
}

/** Appends to an existing ledger (`fitconform cleanup` writes what it undid into the run's own file). */
export function openLedger(file: string): Ledger {
  return {
    file,
    // Synchronous on purpose: the line must be on disk before the next request goes out.
    record: (entry) => appendFileSync(file, JSON.stringify(entry) + '\n'),
  }
}

/** What a ledger still owes: created resources not deleted, restores not done. */
export interface OpenWork {
  readonly file: string
  readonly run?: Extract<LedgerEntry, { type: 'run' }>
  readonly toDelete: readonly { url: string; role: AuthChoice }[]
  readonly toRestore: readonly { scenario: string; requests: readonly RestoreRequest[] }[]
  readonly closed: boolean
}

export function readOpenWork(file: string): OpenWork {
  const entries = readEntries(file)
  const created = new Map<string, AuthChoice>()

  const restores = new Map<string, readonly RestoreRequest[]>()
  let run: OpenWork['run']
  let closed = false
  for (const entry of entries) {
    if (entry.type === 'run') run = entry
    else if (entry.type === 'created') created.set(entry.url, entry.role)
    else if (entry.type === 'deleted') created.delete(entry.url)
    else if (entry.type === 'restore') restores.set(entry.scenario, entry.requests)
    else if (entry.type === 'restored') restores.delete(entry.scenario)
    else if (entry.type === 'closed') closed = true
  }
  return {
    file,
    ...(run ? { run } : {}),
    toDelete: [...created].map(([url, role]) => ({ url, role })),
    toRestore: [...restores].map(([scenario, requests]) => ({ scenario, requests })),
    closed,
  }
}

function readEntries(file: string): LedgerEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LedgerEntry]
      } catch {
        return [] // a line cut short by a hard kill: everything before it still counts
      }
    })
}

/** Counts for the run summary: created/deleted resources, changed/restored values. */
export function countLedger(file: string): { created: number; deleted: number; changed: number; restored: number } {
  const entries = readEntries(file)
  const count = (type: LedgerEntry['type']): number => entries.filter((entry) => entry.type === type).length
  const changed = new Set(entries.flatMap((e) => (e.type === 'restore' ? [e.scenario] : [])))
  // Only what was changed counts as restored: a cleanup with nothing to undo (its value never captured) restores nothing.
  const restored = new Set(entries.flatMap((e) => (e.type === 'restored' && changed.has(e.scenario) ? [e.scenario] : [])))
  return { created: count('created'), deleted: new Set(entries.flatMap((e) => (e.type === 'deleted' ? [e.url] : []))).size, changed: changed.size, restored: restored.size }
}

export function ledgerFiles(outputDir: string): string[] {
  try {
    return readdirSync(outputDir).filter((name) => name.startsWith(LEDGER_PREFIX) && name.endsWith('.ndjson')).sort().map((name) => join(outputDir, name))
  } catch {
    return []
  }
}
