import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
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
 *   {"type":"created","url":"https://…/fitnessActivities/77","role":"token","scenario":"activity-lifecycle"}
 *   {"type":"restore","scenario":"profile-edit","requests":[{"method":"PUT","url":"…/profile","role":"token","headers":{…},"body":"{…}"}]}
 *   {"type":"deleted","url":"https://…/fitnessActivities/77"}
 *   {"type":"restored","scenario":"profile-edit"}
 *   {"type":"refused","url":"https://…/fitnessActivities/76","reason":"… does not carry the run marker …"}
 *   {"type":"left-behind","url":"https://…/fitnessActivities/78","reason":"DELETE answered 204 but a read still finds it"}
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
  | { type: 'left-behind'; url: string; reason: string }
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
  }
}

/** What a ledger still owes: created resources not deleted, restores not done. */
export interface OpenWork {
  readonly file: string
  readonly run?: Extract<LedgerEntry, { type: 'run' }>
  readonly toDelete: readonly { url: string; role: AuthChoice }[]
  readonly toRestore: readonly { scenario: string; requests: readonly RestoreRequest[] }[]
  /** What the run deleted: the marker sweep tells an activity that came back from a lost create. */
  readonly deletedUrls: readonly string[]
  readonly closed: boolean
}

export function readOpenWork(file: string): OpenWork {
  const entries = readEntries(file)
  const created = new Map<string, AuthChoice>()
  const deleted = new Set<string>()

  const restores = new Map<string, readonly RestoreRequest[]>()
  let run: OpenWork['run']
  let closed = false
  for (const entry of entries) {
    if (entry.type === 'run') run = entry
    else if (entry.type === 'created') created.set(entry.url, entry.role)
    else if (entry.type === 'deleted' || entry.type === 'refused') {
      created.delete(entry.url)
      if (entry.type === 'deleted') deleted.add(entry.url)
    }
    else if (entry.type === 'restore') restores.set(entry.scenario, entry.requests)
    else if (entry.type === 'restored') restores.delete(entry.scenario)
    else if (entry.type === 'closed') closed = true
  }
  return {
    file,
    ...(run ? { run } : {}),
    toDelete: [...created].map(([url, role]) => ({ url, role })),
    toRestore: [...restores].map(([scenario, requests]) => ({ scenario, requests })),
    deletedUrls: [...deleted],
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

/** Counts for the run summary: created/deleted resources, changed/restored values, what was refused or left behind. */
export function countLedger(file: string): LedgerCounts {
  const entries = readEntries(file)
  const count = (type: LedgerEntry['type']): number => entries.filter((entry) => entry.type === type).length
  const deletedUrls = new Set(entries.flatMap((e) => (e.type === 'deleted' ? [e.url] : [])))
  const listed = (type: 'refused' | 'left-behind'): { url: string; reason: string }[] =>
    entries.flatMap((e) => (e.type === type && !(type === 'left-behind' && deletedUrls.has(e.url)) ? [{ url: e.url, reason: e.reason }] : []))
  return {
    created: count('created'),
    deleted: deletedUrls.size,
    changed: new Set(entries.flatMap((e) => (e.type === 'restore' ? [e.scenario] : []))).size,
    restored: count('restored'),
    notProvenOurs: listed('refused'),
    leftBehind: listed('left-behind'),
    deletedUrls: [...deletedUrls],
  }
}

export interface LedgerCounts {
  readonly created: number
  readonly deleted: number
  readonly changed: number
  readonly restored: number
  readonly notProvenOurs: readonly { url: string; reason: string }[]
  readonly leftBehind: readonly { url: string; reason: string }[]
  readonly deletedUrls: readonly string[]
}

export function ledgerFiles(outputDir: string): string[] {
  try {
    return readdirSync(outputDir).filter((name) => name.startsWith(LEDGER_PREFIX) && name.endsWith('.ndjson')).sort().map((name) => join(outputDir, name))
  } catch {
    return []
  }
}
