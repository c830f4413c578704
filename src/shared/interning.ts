/*
 * Interning: in a value that is kept for long, a short string, or an object or array of plain values
 * only (a body, a headers object, a rules list), that equals one met before is replaced in place by
 * that one, so that what many kept values repeat is held once. Two callers keep values for long: the
 * run keeps every ended result for its reporters (src/execute/run-interning.ts), and a load keeps
 * every scenario of the suite (src/load/load-suites.ts).
 *
 * The value itself keeps its identity (callers look it up by it); only what it holds may be replaced,
 * by an equal value. Its holder must treat it as read-only data from then on: a kept object may be
 * shared by many holders, and nothing can tell an equal copy from the one it replaces.
 */

/** Longer texts are rarely repeated, and hashing them costs more than it saves. */
const LONGEST_TEXT = 512
/** An object of plain values is compared by its JSON text: past this length it is left alone. */
const LONGEST_LEAF = 2048
/** Past this many, a table starts again, so a run of distinct values cannot grow it without bound. */
const MOST_REMEMBERED = 10_000
/** Deeper structures are left as they are. */
const DEEPEST = 64

export interface InternOptions {
  /**
   * Keep a copy of each text rather than the text met: a string cut from a larger one (in V8, a
   * sliced string: an id or a title read from a file) keeps the whole of the larger one alive.
   */
  readonly copyTexts?: boolean
  /** Freeze each object kept: it is shared, so a change made through one holder would reach them all. */
  readonly freeze?: boolean
}

export type Interner = <T extends object>(value: T) => T

export function createInterner(options: InternOptions = {}): Interner {
  const texts = new Map<string, string>()
  const leaves = new Map<string, object>()
  const { copyTexts = false, freeze = false } = options

  const keep = <V>(table: Map<string, V>, key: string, value: V): V => {
    if (table.size >= MOST_REMEMBERED) table.clear()
    table.set(key, value)
    return value
  }
  const internText = (text: string): string => {
    // Copied, a longer text is remembered too: values that held one text would each get a copy of it.
    if (text.length > LONGEST_TEXT && !copyTexts) return text
    const known = texts.get(text)
    if (known !== undefined) return known
    const kept = copyTexts ? copyOf(text) : text
    // Keyed by what is kept: the text met may be the one whose larger text is to be let go.
    return keep(texts, kept, kept)
  }
  const internLeaf = (leaf: object): object => {
    const key = JSON.stringify(leaf)
    if (key.length > LONGEST_LEAF) return leaf
    return leaves.get(key) ?? keep(leaves, key, freeze ? Object.freeze(leaf) : leaf)
  }

  /** Interns what `value` holds, in place; returns what to keep in its stead. */
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return internText(value)
    if (typeof value !== 'object' || value === null || depth >= DEEPEST || !isPlain(value)) return value
    const leaf = Array.isArray(value) ? visitItems(value, depth) : visitFields(value as Record<string, unknown>, depth)
    return leaf && depth > 0 ? internLeaf(value) : value
  }
  /** Whether every item is a plain value; by index, as the keys of an array are not names. */
  const visitItems = (list: unknown[], depth: number): boolean => {
    let leaf = true
    for (let index = 0; index < list.length; index++) {
      // A hole and a null write the same JSON text: an array with a hole is not shared.
      if (!(index in list)) {
        leaf = false
        continue
      }
      const child = list[index]
      const kept = visit(child, depth + 1)
      // `!==` compares strings by their characters: an equal string kept before must be written too.
      if (kept !== child || typeof kept === 'string') list[index] = kept
      leaf &&= isJsonExact(kept)
    }
    return leaf
  }
  const visitFields = (record: Record<string, unknown>, depth: number): boolean => {
    let leaf = true
    for (const name of Object.keys(record)) {
      const child = record[name]
      const kept = visit(child, depth + 1)
      if (kept !== child || typeof kept === 'string') record[name] = kept
      leaf &&= isJsonExact(kept)
    }
    return leaf
  }

  return (value) => {
    visit(value, 0)
    return value
  }
}

/**
 * A new string of the same characters, held on its own: JSON.parse builds its strings afresh, where
 * slice, concatenation and template literals may give a view into their input.
 */
function copyOf(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
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
