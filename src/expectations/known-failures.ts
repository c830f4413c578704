import { readFile } from 'node:fs/promises'
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import { ConformanceError, type Diagnostic, type SourceRef } from '../model/diagnostic.js'

/**
 * One entry of an `--expect-failures` file: a scenario id or a rule id (or both: that scenario's
 * failures on that rule), why it fails, and where it is tracked.
 *
 *   - scenario: feed-page-size
 *     reason: pageSize is ignored
 *     link: https://tracker.example/FIT-12
 *   - rule: FEED-ITEM-HAS-MAP-TEXT
 *     reason: has_map is sent as a boolean
 */
export interface KnownFailure {
  readonly scenario?: string
  readonly rule?: string
  readonly reason: string
  readonly link?: string
  readonly at: SourceRef
}

const KEYS = ['scenario', 'rule', 'reason', 'link'] as const

/** Reads and checks a known-failures file; a mistake is a ConformanceError (E_CONFIG) with file:line:col. */
export async function loadKnownFailures(file: string): Promise<KnownFailure[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause)
    throw new ConformanceError({ code: 'E_CONFIG', kind: 'load', message: `cannot read the known-failures file ${file}: ${message}` })
  }
  return parseKnownFailures(text, file)
}

export function parseKnownFailures(text: string, file: string): KnownFailure[] {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  const at = (offset: number | undefined): SourceRef => {
    const { line, col } = lineCounter.linePos(offset ?? 0)
    return { file, line, column: col }
  }
  const fail = (offset: number | undefined, message: string): never => {
    const where = at(offset)
    throw new ConformanceError({
      code: 'E_CONFIG',
      kind: 'load',
      message: `${where.file}:${where.line}:${where.column}: ${message}`,
      at: where,
      hint: 'expected a YAML list of { scenario: <id>, rule: <id>, reason: <text>, link: <url> } (scenario or rule, reason required)',
    })
  }
  const syntaxError = document.errors[0]
  if (syntaxError) fail(syntaxError.pos[0], `invalid YAML (${syntaxError.code}): ${syntaxError.message.split('\n')[0] ?? ''}`)
  const root = document.contents
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return []
  if (!isSeq(root)) return fail(rangeStart(root), 'the known-failures file must be a list')
  return root.items.map((item) => {
    if (!isMap(item)) return fail(rangeStart(item), 'each known failure must be a mapping with scenario or rule, and reason')
    const entry: Record<string, string> = {}
    for (const pair of item.items) {
      const keyNode = pair.key as Node | null
      const key = isScalar(keyNode) ? String(keyNode.value) : ''
      if (!(KEYS as readonly string[]).includes(key)) fail(rangeStart(keyNode), `unknown key "${key}" (allowed: ${KEYS.join(', ')})`)
      const value = pair.value as Node | null
      if (!isScalar(value) || typeof value.value !== 'string' || value.value.trim() === '') {
        fail(rangeStart(value) ?? rangeStart(keyNode), `"${key}" must be a non-empty text`)
      } else {
        entry[key] = value.value.trim()
      }
    }
    const start = rangeStart(item)
    if (entry['scenario'] === undefined && entry['rule'] === undefined) fail(start, 'a known failure needs a scenario id or a rule id')
    if (entry['reason'] === undefined) fail(start, 'a known failure needs a reason')
    return {
      ...(entry['scenario'] === undefined ? {} : { scenario: entry['scenario'] }),
      ...(entry['rule'] === undefined ? {} : { rule: entry['rule'] }),
      reason: entry['reason'] ?? '',
      ...(entry['link'] === undefined ? {} : { link: entry['link'] }),
      at: at(start),
    }
  })
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: readonly number[] } | null)?.range
  return range?.[0]
}

/** Entries naming a scenario or rule the run does not know: probably a typo, so the list would gate nothing. */
export function checkKnownFailureIds(
  known: readonly KnownFailure[],
  ids: { readonly scenarios: ReadonlySet<string>; readonly rules: ReadonlySet<string> },
): Diagnostic[] {
  const errors: Diagnostic[] = []
  for (const entry of known) {
    const problem =
      entry.scenario !== undefined && !ids.scenarios.has(entry.scenario)
        ? `unknown scenario id "${entry.scenario}"`
        : entry.rule !== undefined && !ids.rules.has(entry.rule)
          ? `unknown rule id "${entry.rule}"`
          : undefined
    if (problem) {
      const { file, line, column } = entry.at
      errors.push({ code: 'E_CONFIG', kind: 'load', message: `${file}:${line}:${column}: ${problem}`, at: entry.at })
    }
  }
  return errors
}
