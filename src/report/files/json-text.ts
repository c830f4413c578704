/**
 * `JSON.stringify(result, null, 2)` in parts: each top-level value, and each element of a long
 * array, stringified on its own and indented to its depth. Every newline inside a value's own
 * stringified text is structure (strings escape theirs), so re-indenting it gives exactly the bytes
 * the whole call gives, without holding the whole text: a report of thousands of scenarios is tens of
 * megabytes.
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
      for (const [position, item] of each.entries())
        yield `${position === 0 ? '' : ','}\n    ${indented(item, '\n    ')}`
      yield '\n  ]'
    } else {
      yield indented(each, '\n  ')
    }
  }
  yield '\n}'
}

/** What JSON.stringify omits as an object's value: undefined, functions and symbols (no toJSON in our results). */
function stringifies(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol'
}

/** An array element JSON.stringify cannot write becomes `null`, as the whole call writes it. */
function indented(value: unknown, newline: string): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', newline)
}
