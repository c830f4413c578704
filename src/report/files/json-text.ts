/**
 * `JSON.stringify(result, null, 2)` in parts: each top-level value, and each element of a long
 * array, stringified on its own at its depth. A value is stringified inside a wrapper that puts it at
 * that depth (`{"k": value}` for a top-level value, `{"k": [element]}` for an element of a spread
 * array), and the wrapper's own characters are cut off: exactly the bytes the whole call gives,
 * without holding the whole text (a report of thousands of scenarios is tens of megabytes), and
 * without a second copy of each text to indent it.
 */
export function* jsonTextParts(value: object, spreadKeys: ReadonlySet<string>): Generator<string> {
  const entries = Object.entries(value).filter(([, each]) => stringifies(each))
  if (entries.length === 0) {
    yield '{}'
    return
  }
  yield '{'
  for (const [index, [key, each]] of entries.entries()) {
    yield `${index === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `
    if (spreadKeys.has(key) && Array.isArray(each) && each.length > 0) {
      yield '['
      for (const [position, item] of each.entries()) {
        yield position === 0 ? '\n    ' : ',\n    '
        yield inArray(item)
      }
      yield '\n  ]'
    } else {
      yield atTop(each)
    }
  }
  yield '\n}'
}

/** What JSON.stringify omits as an object's value: undefined, functions and symbols (no toJSON in our results). */
function stringifies(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol'
}

const TOP_START = '{\n  "k": '.length
const TOP_END = '\n}'.length
const ELEMENT_START = '{\n  "k": [\n    '.length
const ELEMENT_END = '\n  ]\n}'.length

/** A top-level value (never undefined here), as the whole call writes it after `"key": `. */
function atTop(value: unknown): string {
  const text = JSON.stringify({ k: value }, null, 2)
  return text.slice(TOP_START, text.length - TOP_END)
}

/** An element of a top-level array; one JSON.stringify cannot write becomes `null`, as the whole call writes it. */
function inArray(value: unknown): string {
  const text = JSON.stringify({ k: [value] }, null, 2)
  return text.slice(ELEMENT_START, text.length - ELEMENT_END)
}
