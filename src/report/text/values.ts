import { formatValue } from '../../shared/format-value.js'
import { isRecord } from '../../shared/is-record.js'

/** Size limits of rendered evidence: enough to understand a failure, short enough for a CI log. */
const BODY_MAX_CHARS = 4000
const BODY_MAX_LINES = 80
const DIFF_MAX_ENTRIES = 6

export interface PrettyBody {
  readonly text: string
  readonly truncated: boolean
}

/** A body for a transcript: JSON indented (also JSON held in a string), cut past a size. */
export function prettyBody(body: unknown, limits = { maxChars: BODY_MAX_CHARS, maxLines: BODY_MAX_LINES }): PrettyBody {
  const text = typeof body === 'string' ? prettyJsonText(body) : (JSON.stringify(body, null, 2) ?? String(body))
  const lines = text.split('\n')
  let kept = lines.length > limits.maxLines ? lines.slice(0, limits.maxLines).join('\n') : text
  if (kept.length > limits.maxChars) kept = kept.slice(0, limits.maxChars)
  if (kept.length === text.length) return { text, truncated: false }
  return { text: `${kept}\n… (${text.length - kept.length} more characters not shown)`, truncated: true }
}

function prettyJsonText(text: string): string {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2)
  } catch {
    return text
  }
}

export interface DiffOptions {
  /** `like` comparisons allow keys the expected value does not list. */
  readonly ignoreExtraKeys?: boolean
  readonly limit?: number
}

/** Where two JSON values differ, as `path: expected …, actual …` lines (at most a few). */
export function diffValues(expected: unknown, actual: unknown, options: DiffOptions = {}): string[] {
  const limit = options.limit ?? DIFF_MAX_ENTRIES
  const state: DiffState = { lines: [], limit: limit + 1, ignoreExtraKeys: options.ignoreExtraKeys ?? false }
  collectDifferences(expected, actual, '', state)
  if (state.lines.length > limit) return [...state.lines.slice(0, limit), 'more differences not shown']
  return state.lines
}

interface DiffState {
  readonly lines: string[]
  readonly limit: number
  readonly ignoreExtraKeys: boolean
}

function collectDifferences(expected: unknown, actual: unknown, path: string, state: DiffState): void {
  const { lines, limit } = state
  if (lines.length >= limit) return
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) {
      lines.push(`${path || '.'}: expected ${expected.length} elements, actual ${actual.length}`)
    }
    const shared = Math.min(expected.length, actual.length)
    for (let index = 0; index < shared; index++) {
      collectDifferences(expected[index], actual[index], `${path}[${index}]`, state)
    }
    return
  }
  if (isRecord(expected) && isRecord(actual)) {
    for (const key of Object.keys(expected)) {
      const childPath = `${path}.${key}`
      if (!(key in actual)) lines.push(`${childPath}: expected ${formatValue(expected[key], 60)}, actual (absent)`)
      else collectDifferences(expected[key], actual[key], childPath, state)
      if (lines.length >= limit) return
    }
    if (state.ignoreExtraKeys) return
    for (const key of Object.keys(actual)) {
      if (!(key in expected)) lines.push(`${path}.${key}: not expected, actual ${formatValue(actual[key], 60)}`)
      if (lines.length >= limit) return
    }
    return
  }
  if (!Object.is(expected, actual) && JSON.stringify(expected) !== JSON.stringify(actual)) {
    lines.push(`${path || '.'}: expected ${formatValue(expected, 60)}, actual ${formatValue(actual, 60)}`)
  }
}

/** `340ms`, `1.2s`: durations of scenarios and steps. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`
}
