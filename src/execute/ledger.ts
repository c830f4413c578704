import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AuthChoice } from '../model/scenario.js'
import type { Redactor } from './redact.js'

/**
 * The cleanup ledger: one JSON line per change the suite makes, appended synchronously before the
 * scenario moves on, so a run killed at any point leaves a complete account of what to undo.
 * Only roles are stored, never tokens: every line goes through the run's redactor (a Location carrying
 * `?access_token=…` is written redacted) and the file is readable by its owner only (0600).
 * `fitconform cleanup` replays what is still open, after proving each target is the run's own.
 *
 *   {"type":"run","runId":"3fa1c2d0","marker":"fitconform-run-3fa1c2d0","farYear":1991,"target":"https://…","at":"…"}
 *   {"type":"created","url":"https://…/<activity>/77","role":"token","scenario":"activity-lifecycle"}
 *   {"type":"restore","scenario":"profile-edit","requests":[{"method":"PUT","url":"…/profile","role":"token","headers":{…},"body":"{…}"}]}
 *   {"type":"deleted","url":"https://…/<activity>/77"}
 *   {"type":"restored","scenario":"profile-edit"}
 *   {"type":"refused","url":"https://…/<activity>/76","reason":"… does not carry the run marker …"}
 *   {"type":"left-behind","url":"https://…/<activity>/78","reason":"DELETE answered 204 but a read still finds it"}
 *   {"type":"closed"}
 */
export type LedgerEntry =
  | { type: 'run'; runId: string; marker: string; farYear: number; target: string; at: string }
  | { type: 'created'; url: string; role: AuthChoice; scenario: string }
  | { type: 'deleted'; url: string }
  | { type: 'restore'; scenario: string; requests: RestoreRequest[] }
  | { type: 'restored'; scenario: string }
  /** Not proven ours: nothing was sent to it, and nothing more is owed for it. */
  | { type: 'refused'; url: string; reason: string }
  /** Deleted by us, still there: owed until a later `fitconform cleanup` deletes it. */
  | { type: 'left-behind'; url: string; reason: string; role?: AuthChoice }
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
  /** Nothing is owed any more: the file goes, so an output folder holds only ledgers `fitconform cleanup` has work in. */
  close(): void
}

export const LEDGER_PREFIX = 'ledger-'

export function createLedger(outputDir: string, runId: string, redact: Redactor): Ledger {
  mkdirSync(outputDir, { recursive: true })
  return openLedger(join(outputDir, `${LEDGER_PREFIX}${runId}.ndjson`), redact)
}

/** Appends to an existing ledger (`fitconform cleanup` writes what it undid into the run's own file). */
export function openLedger(file: string, redact: Redactor): Ledger {
  return {
    file,
    // Synchronous on purpose: the line must be on disk before the next request goes out.
    record: (entry) => appendFileSync(file, JSON.stringify(redact(entry)) + '\n', { mode: 0o600 }),
    close: () => rmSync(file, { force: true }),
  }
}

/** What a ledger still owes (created resources not deleted, restores not done) and what it tells the summary. */
export interface OpenWork {
  readonly file: string
  readonly run?: Extract<LedgerEntry, { type: 'run' }>
  readonly toDelete: readonly { url: string; role: AuthChoice }[]
  readonly toRestore: readonly { scenario: string; requests: readonly RestoreRequest[] }[]
  /** What the run deleted and a read confirmed gone: the marker sweep finding one again means it came back. */
  readonly deletedUrls: readonly string[]
  readonly counts: LedgerCounts
  readonly closed: boolean
}

/** Counts for the run summary: created/deleted resources, changed/restored values, what was refused or left behind. */
export interface LedgerCounts {
  readonly created: number
  readonly deleted: number
  readonly changed: number
  readonly restored: number
  readonly notProvenOurs: readonly { url: string; reason: string }[]
  readonly leftBehind: readonly { url: string; reason: string }[]
}

/** Replays the ledger in order: a later line overrides an earlier one about the same URL. */
export function readOpenWork(file: string): OpenWork {
  const entries = readEntries(file)
  const created = new Map<string, AuthChoice>()
  const roles = new Map<string, AuthChoice>()
  const deleted = new Set<string>()
  const refused = new Map<string, string>()
  const leftBehind = new Map<string, string>()
  const restores = new Map<string, readonly RestoreRequest[]>()
  const changed = new Set<string>()
  // Only what was changed counts as restored: a cleanup with nothing to undo (its value never captured) restores nothing.
  const restored = new Set<string>()
  let createdCount = 0
  let run: OpenWork['run']
  let closed = false
  for (const entry of entries) {
    if (entry.type === 'run') run = entry
    else if (entry.type === 'created') {
      created.set(entry.url, entry.role)
      roles.set(entry.url, entry.role)
      createdCount++
    } else if (entry.type === 'deleted') {
      created.delete(entry.url)
      leftBehind.delete(entry.url)
      deleted.add(entry.url)
    } else if (entry.type === 'refused') {
      created.delete(entry.url)
      refused.set(entry.url, entry.reason)
    } else if (entry.type === 'left-behind') {
      // Still there: owed again, with the token that created it.
      created.set(entry.url, entry.role ?? roles.get(entry.url) ?? 'token')
      deleted.delete(entry.url)
      leftBehind.set(entry.url, entry.reason)
    } else if (entry.type === 'restore') {
      restores.set(entry.scenario, entry.requests)
      changed.add(entry.scenario)
    } else if (entry.type === 'restored') {
      restores.delete(entry.scenario)
      if (changed.has(entry.scenario)) restored.add(entry.scenario)
    } else if (entry.type === 'closed') closed = true
  }
  const listed = (items: Map<string, string>): { url: string; reason: string }[] => [...items].map(([url, reason]) => ({ url, reason }))
  return {
    file,
    ...(run ? { run } : {}),
    toDelete: [...created].map(([url, role]) => ({ url, role })),
    toRestore: [...restores].map(([scenario, requests]) => ({ scenario, requests })),
    deletedUrls: [...deleted],
    counts: { created: createdCount, deleted: deleted.size, changed: changed.size, restored: restored.size, notProvenOurs: listed(refused), leftBehind: listed(leftBehind) },
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

export function ledgerFiles(outputDir: string): string[] {
  try {
    return readdirSync(outputDir).filter((name) => name.startsWith(LEDGER_PREFIX) && name.endsWith('.ndjson')).sort().map((name) => join(outputDir, name))
  } catch {
    return []
  }
}
