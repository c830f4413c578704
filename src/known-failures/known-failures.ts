import { readFile } from 'node:fs/promises'
import { parseYamlSource, type YamlPath } from '../load/yaml-source.js'
import { ConformanceError, toDiagnostic, type Diagnostic, type SourceRef } from '../model/diagnostic.js'

/**
 * One entry of an `--expect-failures` file: a scenario id or a rule id (or both: that scenario's
 * failures on that rule), why it fails, and where it is tracked.
 *
 *   - scenario: feed-page-size
 *     reason: pageSize is ignored
 *     link: https://tracker.example/FIT-12
 *   - rule: <a rule id of `fitconform rules`>
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
    throw new ConformanceError({
      code: 'E_CONFIG',
      kind: 'load',
      message: `cannot read the known-failures file ${file}: ${message}`,
    })
  }
  return parseKnownFailures(text, file)
}

export function parseKnownFailures(text: string, file: string): KnownFailure[] {
  const { source, diagnostics } = parseYamlSource(file, text)
  if (!source) throw new ConformanceError({ ...diagnostics[0]!, code: 'E_CONFIG', hint: HINT })
  const fail = (path: YamlPath, message: string, part?: 'key'): never => {
    throw new ConformanceError({ code: 'E_CONFIG', kind: 'load', message, at: source.locate(path, part), hint: HINT })
  }
  const data = source.data
  if (data === null || data === undefined || data === '') return []
  if (!Array.isArray(data)) return fail([], 'the known-failures file must be a list')
  return data.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return fail([index], 'each known failure must be a mapping with scenario or rule, and reason')
    const entry: Record<string, string> = {}
    for (const [key, value] of Object.entries(item)) {
      if (!(KEYS as readonly string[]).includes(key))
        fail([index, key], `unknown key "${key}" (allowed: ${KEYS.join(', ')})`, 'key')
      if (typeof value !== 'string' || value.trim() === '') fail([index, key], `"${key}" must be a non-empty text`)
      entry[key] = (value as string).trim()
    }
    if (entry['scenario'] === undefined && entry['rule'] === undefined)
      fail([index], 'a known failure needs a scenario id or a rule id')
    if (entry['reason'] === undefined) fail([index], 'a known failure needs a reason')
    return {
      ...(entry['scenario'] === undefined ? {} : { scenario: entry['scenario'] }),
      ...(entry['rule'] === undefined ? {} : { rule: entry['rule'] }),
      reason: entry['reason']!,
      ...(entry['link'] === undefined ? {} : { link: entry['link'] }),
      at: source.locate([index]),
    }
  })
}

const HINT =
  'expected a YAML list of { scenario: <id>, rule: <id>, reason: <text>, link: <url> } (scenario or rule, reason required)'

/** `--expect-failures FILE` for a loaded suite: its entries, or the problems (unreadable, malformed, unknown ids) instead of a throw. */
export async function loadKnownFailuresFor(
  file: string,
  loaded: {
    readonly scenarios: readonly { readonly id: string }[]
    readonly rules: readonly { readonly id: string }[]
  },
): Promise<{ readonly known: KnownFailure[]; readonly problems: Diagnostic[] }> {
  try {
    const known = await loadKnownFailures(file)
    const problems = checkKnownFailureIds(known, {
      scenarios: new Set(loaded.scenarios.map((s) => s.id)),
      rules: new Set(loaded.rules.map((r) => r.id)),
    })
    return { known, problems }
  } catch (error) {
    return { known: [], problems: [toDiagnostic(error)] }
  }
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
      errors.push({ code: 'E_CONFIG', kind: 'load', message: problem, at: entry.at })
    }
  }
  return errors
}
