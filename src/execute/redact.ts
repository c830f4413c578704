/** Replaces secret values wherever they occur, by value: headers, URLs, bodies, messages. */
export type Redactor = <T>(value: T) => T

export function createRedactor(secrets: ReadonlyMap<string, string>): Redactor {
  // Each secret also as it appears percent-encoded (in a link) or JSON-escaped (in a body's text).
  const forms = [...secrets].flatMap(([value, label]) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)].map((form) => [form, label] as const))
  // Longest first, so a token that contains another is replaced whole.
  const entries = [...new Map(forms)].filter(([value]) => value.length >= 4).sort((a, b) => b[0].length - a[0].length)
  const redactString = (text: string): string => {
    let result = text
    for (const [value, label] of entries) if (result.includes(value)) result = result.split(value).join(`[REDACTED ${label}]`)
    return result
  }
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value)
    if (Array.isArray(value)) return value.map(redact)
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, element]) => [redactString(key), redact(element)]))
    }
    return value
  }
  return entries.length === 0 ? (value) => value : (value) => redact(value) as typeof value
}
