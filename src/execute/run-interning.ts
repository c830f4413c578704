/*
 * A run keeps every scenario's result until its reporters write their files (results.json needs them
 * all, and personal-data masking may change any of them at the end: src/execute/finalize/personal-data.ts).
 * Those results repeat the same values scenario after scenario: the response's content type and
 * links, the request's URL and headers, the curl line, the check messages, whole response bodies.
 * Interning keeps each repeated value once.
 *
 * An ended result is interned in place: a short string, or an object or array of plain values only
 * (a body, a headers object, a rules list), that equals one met before is replaced by that one.
 * Results are read-only data (src/model/reporter.ts), so nothing can tell an equal copy from the one
 * it replaces; the result itself keeps its identity (the masking's per-scenario pass is looked up by it).
 */

/** Longer texts are rarely repeated, and hashing them costs more than it saves. */
const LONGEST_TEXT = 512
/** An object of plain values is compared by its JSON text: past this length it is left alone. */
const LONGEST_LEAF = 2048
/** Past this many, a table starts again, so a run of distinct values cannot grow it without bound. */
const MOST_REMEMBERED = 10_000
/** Deeper structures are left as they are. */
const DEEPEST = 64

export type ResultInterner = <T extends object>(result: T) => T

export function createResultInterner(): ResultInterner {
  const texts = new Map<string, string>()
  const leaves = new Map<string, object>()

  const remember = <V>(table: Map<string, V>, key: string, value: V): V => {
    const known = table.get(key)
    if (known !== undefined) return known
    if (table.size >= MOST_REMEMBERED) table.clear()
    table.set(key, value)
    return value
  }

  /** Interns what `value` holds, in place; returns what to keep in its stead. */
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return value.length > LONGEST_TEXT ? value : remember(texts, value, value)
    if (typeof value !== 'object' || value === null || depth >= DEEPEST || !isPlain(value)) return value
    const record = value as Record<string, unknown>
    let leaf = true
    for (const name of Object.keys(record)) {
      const child = record[name]
      const kept = visit(child, depth + 1)
      if (kept !== child) record[name] = kept
      leaf &&= isJsonExact(kept)
    }
    // A hole and a null write the same JSON text.
    if (!leaf || depth === 0 || (Array.isArray(value) && Object.keys(value).length !== value.length)) return value
    const key = JSON.stringify(value)
    return key.length > LONGEST_LEAF ? value : remember(leaves, key, value)
  }

  return (result) => {
    visit(result, 0)
    return result
  }
}

/**
 * A value that two objects can share when their JSON texts are equal: a string, a boolean, null, or
 * a number JSON writes as itself (not NaN, the infinities or -0). Not undefined: `{ a: undefined }`
 * and `{}` have the same text, but not the same keys.
 */
function isJsonExact(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0)
    default:
      return value === null
  }
}

/** Objects from literals and JSON.parse, and arrays, that can be changed: not class instances, not frozen values. */
function isPlain(value: object): boolean {
  if (!Object.isExtensible(value)) return false
  if (Array.isArray(value)) return true
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
