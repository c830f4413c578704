/**
 * JSON with object keys in sorted order, so that two recordings of the same traffic diff cleanly
 * (STYLE §2.12). Arrays keep their order; `undefined` members are left out as JSON.stringify does.
 *
 * It runs once per recorded exchange, so it copies only the objects whose keys are out of order (and
 * those holding one) and leaves the rest to JSON.stringify's native path. The recording's entries are
 * built with their keys in order (har-entry.ts), so for them it only looks: `for…in` walks the keys
 * without allocating a list of them, which halves the look's cost.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sorted(value))
}

/** The value with every object's keys in sorted order: the value itself wherever they already are. */
function sorted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i += 1) {
      const member: unknown = value[i]
      if (member === null || typeof member !== 'object') continue
      const inOrder = sorted(member)
      if (inOrder !== member) {
        copy ??= value.slice()
        copy[i] = inOrder
      }
    }
    return copy ?? value
  }
  const object = value as Record<string, unknown>
  let previous: string | undefined
  let copy: Record<string, unknown> | undefined
  // Own keys only: the values sorted here are plain data (JSON.stringify reads own keys alone too).
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue
    if (previous !== undefined && !(previous < key)) return sortedCopy(object)
    previous = key
    const member = object[key]
    if (member === null || typeof member !== 'object') continue
    const inOrder = sorted(member)
    if (inOrder !== member) {
      copy ??= { ...object }
      copy[key] = inOrder
    }
  }
  return copy ?? value
}

function sortedCopy(object: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(object).sort()) {
    const member = object[key]
    if (member !== undefined) copy[key] = sorted(member)
  }
  return copy
}
