/**
 * How a value from a server or a scenario is printed, one way for the whole tool: `formatValue` as
 * JSON on one line (report evidence, matcher descriptions), `describeValue` as words naming its JSON
 * type (schema problems, analyzer findings).
 */

/** Past this, a value in a report is cut: enough to understand a failure, short enough for a CI log. */
const VALUE_MAX_CHARS = 200
/** A text inside a phrase is shorter still: it stands in the middle of a sentence. */
const PHRASE_MAX_CHARS = 40

/** One value on one line: JSON for data, `(absent)` for undefined, cut past `maxChars`. */
export function formatValue(value: unknown, maxChars = VALUE_MAX_CHARS): string {
  if (value === undefined) return '(absent)'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return truncateText(text, maxChars)
}

export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)`
}

/**
 * A short phrase naming a value and its JSON type.
 * @example describeValue(true) // 'the boolean true'
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') {
    const shown = value.length > PHRASE_MAX_CHARS ? `${value.slice(0, PHRASE_MAX_CHARS - 1)}…` : value
    return `the text ${JSON.stringify(shown)}`
  }
  if (typeof value === 'boolean' || typeof value === 'number') return `the ${typeof value} ${String(value)}`
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`
  if (typeof value === 'object') return 'an object'
  return 'nothing'
}
