/**
 * `analyze`: a summary of one or more recordings, read line by line. Memory is bounded by the number
 * of endpoints, statuses and rules (and a capped number of unknown paths), not by the recording.
 */
import type { ExchangeEntry, FindingKind } from '../../src/model/exchange.js'
import { wildcardPointer } from '../../src/validation/repeated-problems.js'
import { readExchanges, type SkippedLine } from './read-exchanges.js'

const EXAMPLES_PER_GROUP = 3
const MAX_UNKNOWN_KEYS = 100
const MAX_PROBLEMS = 20

export interface FindingExample {
  readonly exchange: number
  readonly request: string
  readonly status: number
  readonly pointer?: string
  readonly message: string
}

export interface FindingGroup {
  readonly kind: FindingKind
  readonly rule?: string
  /** For a problem found on many items of an array (`repeated`): the array, its indices as `*`. */
  readonly pointer?: string
  count: number
  /** Items the problem was found on, of how many, summed over the exchanges that had it (`repeated` findings). */
  items?: { count: number; of: number }
  readonly examples: FindingExample[]
}

export interface RecordingSummary {
  readonly files: string[]
  exchanges: number
  failed: number
  firstStarted?: string
  lastStarted?: string
  /** `GET /fitnessActivities/<activity_id>` (§4 rows) or `unknown: GET /teams`. */
  readonly endpoints: Record<string, number>
  readonly statuses: Record<string, number>
  readonly failures: Record<string, number>
  readonly kinds: Record<FindingKind, number>
  readonly findings: FindingGroup[]
  unreadableLines: number
  readonly problems: { readonly file: string; readonly line: number; readonly problem: string }[]
}

/** `onSkipped` hears of each malformed line as it is met (the summary keeps the first few too). */
export async function summarizeRecordings(
  files: readonly string[],
  onSkipped: (skipped: SkippedLine) => void = () => {},
): Promise<RecordingSummary> {
  const summary: RecordingSummary = {
    files: [...files],
    exchanges: 0,
    failed: 0,
    endpoints: {},
    statuses: {},
    failures: {},
    kinds: { violation: 0, irregularity: 0, note: 0, 'unknown-endpoint': 0 },
    findings: [],
    unreadableLines: 0,
    problems: [],
  }
  const groups = new Map<string, FindingGroup>()
  let unknownKeys = 0
  const skipped = (line: SkippedLine): void => {
    summary.unreadableLines += 1
    if (summary.problems.length < MAX_PROBLEMS)
      summary.problems.push({ file: line.file, line: line.line, problem: line.problem })
    onSkipped(line)
  }
  for await (const { entry } of readExchanges(files, skipped)) {
    summary.exchanges += 1
    if (entry._error !== undefined) {
      summary.failed += 1
      count(summary.failures, entry._error.code)
    }
    if (summary.firstStarted === undefined || entry.startedDateTime < summary.firstStarted)
      summary.firstStarted = entry.startedDateTime
    if (summary.lastStarted === undefined || entry.startedDateTime > summary.lastStarted)
      summary.lastStarted = entry.startedDateTime
    let key = endpointKey(entry)
    if (key.startsWith('unknown:') && summary.endpoints[key] === undefined && ++unknownKeys > MAX_UNKNOWN_KEYS)
      key = 'unknown: (other paths)'
    count(summary.endpoints, key)
    count(summary.statuses, String(entry.response.status))
    for (const f of entry._findings ?? []) {
      summary.kinds[f.kind] += 1
      // A problem told once for many items of an array is grouped by the array, so that its items add up across exchanges.
      const pointer = f.repeated === undefined || f.pointer === undefined ? undefined : wildcardPointer(f.pointer)
      const groupKey = `${f.kind}\u0000${f.rule ?? ''}\u0000${pointer ?? ''}`
      let group = groups.get(groupKey)
      if (group === undefined) {
        group = {
          kind: f.kind,
          rule: f.rule,
          pointer,
          count: 0,
          examples: [],
        }
        groups.set(groupKey, group)
      }
      group.count += 1
      if (f.repeated !== undefined) {
        group.items ??= { count: 0, of: 0 }
        group.items.count += f.repeated.count
        group.items.of += f.repeated.of
      }
      if (group.examples.length < EXAMPLES_PER_GROUP) {
        group.examples.push({
          exchange: entry._id,
          request: `${entry.request.method} ${pathOf(entry.request.url)}`,
          status: entry.response.status,
          pointer: f.pointer,
          message: f.message,
        })
      }
    }
  }
  const order: Record<FindingKind, number> = { violation: 0, irregularity: 1, 'unknown-endpoint': 2, note: 3 }
  summary.findings.push(
    ...[...groups.values()].sort(
      (a, b) => order[a.kind] - order[b.kind] || b.count - a.count || (a.rule ?? '').localeCompare(b.rule ?? ''),
    ),
  )
  return summary
}

function endpointKey(entry: ExchangeEntry): string {
  if (entry._endpoint !== undefined) return `${entry._endpoint.method} ${entry._endpoint.path}`
  // Id-like segments are folded so that unknown paths do not grow without bound.
  const path = pathOf(entry.request.url)
    .split('?')[0]
    ?.split('/')
    .map((segment) => (/\d/.test(segment) && segment.length > 3 ? '<id>' : segment))
    .join('/')
  return `unknown: ${entry.request.method} ${path ?? '/'}`
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

function thousands(n: number): string {
  return n.toLocaleString('en-US')
}

function count(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1
}

/** The text form of a summary, one line per array item. */
export function formatSummary(summary: RecordingSummary): string[] {
  const lines: string[] = []
  const span = summary.firstStarted === undefined ? '' : `, ${summary.firstStarted} → ${summary.lastStarted ?? ''}`
  lines.push(`${summary.files.join(', ')}: ${summary.exchanges} exchanges (${summary.failed} failed)${span}`)
  // Each skipped line was told as a `file:line` warning while reading; the summary counts them.
  if (summary.unreadableLines > 0) lines.push(`${summary.unreadableLines} malformed lines skipped`)
  lines.push('', 'Exchanges per endpoint')
  for (const [key, n] of Object.entries(summary.endpoints).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
    lines.push(`  ${String(n).padStart(6)}  ${key}`)
  lines.push('', 'Status codes')
  lines.push(
    `  ${Object.entries(summary.statuses)
      .map(([status, n]) => `${status} ×${n}`)
      .join('   ')}`,
  )
  if (Object.keys(summary.failures).length > 0) {
    lines.push('', 'Failed exchanges')
    for (const [code, n] of Object.entries(summary.failures)) lines.push(`  ${String(n).padStart(6)}  ${code}`)
  }
  const k = summary.kinds
  lines.push(
    '',
    `Findings: ${k.violation} violations, ${k.irregularity} irregularities, ${k['unknown-endpoint']} unknown endpoints, ${k.note} notes`,
  )
  for (const group of summary.findings) {
    const items =
      group.items === undefined
        ? ''
        : `  ${group.pointer ?? ''}: ${thousands(group.items.count)} of ${thousands(group.items.of)} items in ${thousands(group.count)} ${group.count === 1 ? 'response' : 'responses'}`
    lines.push(`  ${group.kind.padEnd(16)} ${(group.rule ?? '-').padEnd(32)} ×${group.count}${items}`)
    for (const ex of group.examples) {
      const where = ex.pointer === undefined || ex.pointer === '' ? '' : ` ${ex.pointer}`
      lines.push(`      #${ex.exchange} ${ex.request} → ${ex.status}${where}: ${ex.message}`)
    }
  }
  return lines
}
