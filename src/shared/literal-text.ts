// The one escape rule for data that must reach the server as it is: text that fuzz generates and text
// a recording holds are written into scenario files, whose strings the template language renders.
// Every `$` is doubled, so `renderTemplate` gives back the text itself, whatever it holds (`${`,
// `$$`, a `$` at its end followed by a placeholder). docs/scenario-format.md "Literal text".

/** Text written so that rendering it gives back `text` exactly: every `$` becomes `$$`. */
export function literalText(text: string): string {
  return text.replace(/\$/g, () => '$$')
}

/** `literalText` on every string of a JSON value (object keys are never rendered, so they stay). */
export function literalValue(value: unknown): unknown {
  if (typeof value === 'string') return literalText(value)
  if (Array.isArray(value)) return value.map(literalValue)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, literalValue(element)]))
  return value
}
