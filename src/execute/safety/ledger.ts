import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TOKEN_ROLES, type AuthChoice, type TokenRole } from '../../model/scenario.js'
import { EDITABLE_PROFILE_FIELDS } from '../../spec/profile-fields.js'
import { FULL_ACCESS_ROLES } from '../../spec/token-roles.js'
import { isFarYear, isRunMarker } from './ownership.js'
import type { Redactor } from '../finalize/redact.js'
import { PROFILE_PATH } from '../../spec/paths.js'

/**
 * The cleanup ledger: one JSON line per change the suite makes, appended synchronously before the
 * scenario moves on, so a run killed at any point leaves a complete account of what to undo.
 * Only roles are stored, never tokens: every line goes through the run's redactor (a Location carrying
 * `?access_token=…` is written redacted) and the file is readable by its owner only (0600).
 *
 * A ledger is evidence, never authority (docs/safety.md): anyone may have edited it. Reading it keeps
 * only lines of the shapes below with sane values (a run-shaped marker, a far year in range, a role
 * of ours, a profile field §2.6 marks editable, with a plain value); every other line is refused and listed.
 * `fitconform cleanup` sends no request a line spells out: it rebuilds each from a closed list.
 *
 *   {"type":"run","runId":"3fa1c2d0","marker":"fitconform-run-3fa1c2d0","farYear":1991,"target":"https://…","at":"…"}
 *   {"type":"created","url":"https://…/<activity>/77","role":"token","scenario":"activity-lifecycle"}
 *   {"type":"profile","role":"token","field":"athlete_type","value":"Runner"}
 *   {"type":"deleted","url":"https://…/<activity>/77"}
 *   {"type":"profile-restored","role":"token","field":"athlete_type"}
 *   {"type":"refused","url":"https://…/<activity>/76","reason":"… does not carry the run marker …"}
 *   {"type":"left-behind","url":"https://…/<activity>/78","reason":"DELETE answered 204 but a read still finds it"}
 *
 * A ledger with nothing owed is removed (`close()`), so an output folder holds only ledgers that
 * `fitconform cleanup` has work in.
 */
export type LedgerEntry =
  | { type: 'run'; runId: string; marker: string; farYear: number; target: string; at: string }
  | { type: 'created'; url: string; role: AuthChoice; scenario: string }
  | { type: 'deleted'; url: string }
  /** A profile field's value as the run found it, written before the run's first write of that field. */
  | { type: 'profile'; role: TokenRole; field: string; value: unknown }
  | { type: 'profile-restored'; role: TokenRole; field: string }
  /** Written by earlier versions: read only as far as it names a profile field to set back. */
  | { type: 'restore'; scenario: string; requests: RestoreRequest[] }
  | { type: 'restored'; scenario: string }
  /** Not proven ours: nothing was sent to it, and nothing more is owed for it. */
  | { type: 'refused'; url: string; reason: string }
  /** Deleted by us, still there: owed until a later `fitconform cleanup` deletes it. */
  | { type: 'left-behind'; url: string; reason: string; role?: AuthChoice }
  /** Written by earlier versions, which kept a finished ledger: nothing more is owed. */
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
  /** Never throws: a line that cannot be written makes the ledger broken (see onFailure). */
  record(entry: LedgerEntry): void
  /** Why the ledger could not be written, once it could not. */
  readonly broken: string | undefined
  /** Every line recorded through this ledger, written or not: the run's own account, kept in memory. */
  readonly lines: readonly string[]
  /** Nothing is owed any more: the file goes, so an output folder holds only ledgers `fitconform cleanup` has work in. */
  close(): void
}

const LEDGER_PREFIX = 'ledger-'

/** Told once, when a line cannot be written (a full disk): the run stops writing to the account. */
export type LedgerFailure = (reason: string) => void

export function createLedger(outputDir: string, runId: string, redact: Redactor, onFailure?: LedgerFailure): Ledger {
  mkdirSync(outputDir, { recursive: true })
  return openLedger(join(outputDir, `${LEDGER_PREFIX}${runId}.ndjson`), redact, onFailure)
}

/** Appends to an existing ledger (`fitconform cleanup` writes what it undid into the run's own file). */
export function openLedger(file: string, redact: Redactor, onFailure?: LedgerFailure): Ledger {
  let broken: string | undefined
  const lines: string[] = []
  return {
    file,
    get broken() {
      return broken
    },
    lines,
    record: (entry) => {
      const line = JSON.stringify(redact(entry))
      lines.push(line)
      try {
        // Synchronous on purpose: the line must be on disk before the next request goes out.
        appendFileSync(file, line + '\n', { mode: 0o600 })
      } catch (error) {
        // Never thrown: the cleanup of what was created must go on whatever the disk does.
        if (broken !== undefined) return
        broken = `the ledger ${file} could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
        onFailure?.(broken)
      }
    },
    close: () => rmSync(file, { force: true }),
  }
}

/** What a ledger still owes (created resources not deleted, restores not done) and what it tells the summary. */
export interface OpenWork {
  readonly file: string
  /** Absent when the ledger has no run line, or one whose marker or far year is not a run's. */
  readonly run?: Extract<LedgerEntry, { type: 'run' }>
  readonly toDelete: readonly { url: string; role: AuthChoice }[]
  /** Profile fields to set back, per user, rebuilt from the closed list of §2.6 fields. */
  readonly toRestore: readonly ProfileRestore[]
  /** What the run deleted and a read confirmed gone: the marker sweep finding one again means it came back. */
  readonly deletedUrls: readonly string[]
  readonly counts: LedgerCounts
  /** Each line that is not evidence of this kind, with why: nothing is done for it, and cleanup exits 1. */
  readonly refusedLines: readonly string[]
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

export interface ProfileRestore {
  readonly role: TokenRole
  readonly fields: Readonly<Record<string, string | number | boolean | null>>
}

/** Replays the ledger file in order: a later line overrides an earlier one about the same URL. */
export function readOpenWork(file: string): OpenWork {
  // Not a regular file (a device such as /dev/zero), or past any run's size: read as an empty ledger, every byte refused.
  const stats = statSync(file)
  if (!stats.isFile() || stats.size > MAX_LEDGER_BYTES)
    return {
      ...openWorkOf(file, []),
      refusedLines: [
        `the ledger is ${stats.isFile() ? `over ${MAX_LEDGER_BYTES} bytes` : 'not a regular file'}: nothing in it is read`,
      ],
    }
  return openWorkOf(file, readFileSync(file, 'utf8').split('\n'))
}

/** Far past what any run writes (a line per change): a bigger file is not a ledger of ours. */
const MAX_LEDGER_BYTES = 64 * 1024 * 1024

/** The run's own ledger as it recorded it (the file may have stopped taking lines: a full disk). */
export function openWorkOfLedger(ledger: Ledger): OpenWork {
  return openWorkOf(ledger.file, ledger.lines)
}

function openWorkOf(file: string, lines: readonly string[]): OpenWork {
  const created = new Map<string, AuthChoice>()
  const roles = new Map<string, AuthChoice>()
  const deleted = new Set<string>()
  const refused = new Map<string, string>()
  const leftBehind = new Map<string, string>()
  const profile = new Map<string, { role: TokenRole; field: string; value: string | number | boolean | null }>()
  const restored = new Set<string>()
  const refusedLines: string[] = []
  let createdCount = 0
  let run: OpenWork['run']
  let closed = false
  parseLines(lines).forEach(({ entry: parsed, line }, index) => {
    const why = whyNotEvidence(parsed)
    if (why) return void refusedLines.push(`line ${index + 1}: ${why}: ${line.slice(0, 200)}`)
    const entry = parsed as LedgerEntry
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
    } else if (entry.type === 'profile') {
      // The first value is the one the run found; a later line about the same field changes nothing.
      const key = `${entry.role}\u0000${entry.field}`
      if (!profile.has(key))
        profile.set(key, {
          role: entry.role,
          field: entry.field,
          value: entry.value as string | number | boolean | null,
        })
    } else if (entry.type === 'profile-restored') restored.add(`${entry.role}\u0000${entry.field}`)
    else if (entry.type === 'restore') {
      for (const restore of legacyProfileRestores(entry.requests)) {
        for (const [field, value] of Object.entries(restore.fields)) {
          const key = `${restore.role}\u0000${field}`
          if (!profile.has(key)) profile.set(key, { role: restore.role, field, value })
        }
      }
    } else if (entry.type === 'restored') {
      // An earlier version's "this scenario's cleanup ran": it names no field, so it settles nothing.
    } else if (entry.type === 'closed') closed = true
  })
  const listed = (items: Map<string, string>): { url: string; reason: string }[] =>
    [...items].map(([url, reason]) => ({ url, reason }))
  const owed = new Map<TokenRole, Record<string, string | number | boolean | null>>()
  for (const [key, { role, field, value }] of profile) {
    if (restored.has(key)) continue
    owed.set(role, { ...owed.get(role), [field]: value })
  }
  return {
    file,
    run,
    toDelete: [...created].map(([url, role]) => ({ url, role })),
    toRestore: [...owed].map(([role, fields]) => ({ role, fields })),
    deletedUrls: [...deleted],
    counts: {
      created: createdCount,
      deleted: deleted.size,
      changed: profile.size,
      restored: [...profile.keys()].filter((key) => restored.has(key)).length,
      notProvenOurs: listed(refused),
      leftBehind: listed(leftBehind),
    },
    refusedLines,
    closed,
  }
}

/** Why a parsed line is not evidence the ledger may hold; undefined when it is. */
function whyNotEvidence(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'not a JSON object'
  const e = entry as Record<string, unknown>
  const isUrl = (value: unknown): boolean => typeof value === 'string' && URL.canParse(value)
  switch (e['type']) {
    case 'run':
      if (!isRunMarker(e['marker']))
        return 'the marker is not of the run-marker shape (fitconform-run- and 8 hex digits)'
      if (!isFarYear(e['farYear'])) return 'the far year is not one a run chooses'
      return undefined
    case 'created':
      return !isUrl(e['url']) ? 'no URL' : !isAuthChoice(e['role']) ? 'an unknown role' : undefined
    case 'deleted':
    case 'refused':
      return isUrl(e['url']) ? undefined : 'no URL'
    case 'left-behind':
      return !isUrl(e['url'])
        ? 'no URL'
        : e['role'] !== undefined && !isAuthChoice(e['role'])
          ? 'an unknown role'
          : undefined
    case 'profile':
      if (!isFullAccessRole(e['role'])) return 'not a role whose profile the run reads'
      if (typeof e['field'] !== 'string' || !EDITABLE_PROFILE_FIELDS.includes(e['field']))
        return 'not a profile field §2.6 marks editable'
      return isPlainValue(e['value']) ? undefined : 'not a plain value'
    case 'profile-restored':
      return isFullAccessRole(e['role']) && typeof e['field'] === 'string' ? undefined : 'not a role and field'
    case 'restore': {
      const requests = e['requests']
      if (!Array.isArray(requests)) return 'no requests'
      const kept = legacyProfileRestores(requests as RestoreRequest[])
      return kept.length === requests.length
        ? undefined
        : 'a request that is not a PUT of editable §2.6 profile fields is never replayed'
    }
    case 'restored':
    case 'closed':
      return undefined
    default:
      return 'an unknown kind of line'
  }
}

/** An earlier version's restore request, kept only as the profile fields it sets back (its URL, headers and method are not used). */
function legacyProfileRestores(requests: readonly RestoreRequest[]): ProfileRestore[] {
  return requests.flatMap((request) => {
    if (typeof request !== 'object' || request === null || request.method !== 'PUT' || !isFullAccessRole(request.role))
      return []
    let path: string
    try {
      path = new URL(request.url).pathname
    } catch {
      return []
    }
    if (!path.endsWith(PROFILE_PATH)) return []
    let body: unknown
    try {
      body = JSON.parse(request.body ?? '')
    } catch {
      return []
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return []
    const entries = Object.entries(body)
    if (
      entries.length === 0 ||
      !entries.every(([field, value]) => EDITABLE_PROFILE_FIELDS.includes(field) && isPlainValue(value))
    )
      return []
    return [{ role: request.role, fields: Object.fromEntries(entries) as ProfileRestore['fields'] }]
  })
}

function isPlainValue(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

function isAuthChoice(value: unknown): value is AuthChoice {
  return typeof value === 'string' && ([...TOKEN_ROLES, 'none', 'invalid'] as readonly string[]).includes(value)
}

function isFullAccessRole(value: unknown): value is TokenRole {
  return typeof value === 'string' && (FULL_ACCESS_ROLES as readonly string[]).includes(value)
}

function parseLines(lines: readonly string[]): { entry: unknown; line: string }[] {
  return lines
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [{ entry: JSON.parse(line) as unknown, line }]
      } catch {
        return [] // a line cut short by a hard kill: everything before it still counts
      }
    })
}

export function ledgerFiles(outputDir: string): string[] {
  try {
    return readdirSync(outputDir)
      .filter((name) => name.startsWith(LEDGER_PREFIX) && name.endsWith('.ndjson'))
      .sort()
      .map((name) => join(outputDir, name))
  } catch {
    return []
  }
}
