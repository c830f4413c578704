/**
 * JSON with object keys in sorted order, so that two recordings of the same traffic diff cleanly
 * (STYLE §2.12). Arrays keep their order; `undefined` members are left out as JSON.stringify does.
 *
 * It runs once per recorded exchange, so it copies only the objects whose keys are out of order (and
 * those holding one) and leaves the rest to JSON.stringify's native path: about half the cost of
 * rebuilding every object of the entry.
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
      const inOrder = sorted(member)
      if (inOrder !== member) {
        copy ??= value.slice()
        copy[i] = inOrder
      }
    }
    return copy ?? value
  }
  const object = value as Record<string, unknown>
  const keys = Object.keys(object)
  let ordered = true
  for (let i = 1; i < keys.length && ordered; i += 1) ordered = (keys[i - 1] as string) < (keys[i] as string)
  if (!ordered) {
    const copy: Record<string, unknown> = {}
    for (const key of keys.sort()) {
      const member = object[key]
      if (member !== undefined) copy[key] = sorted(member)
    }
    return copy
  }
  let copy: Record<string, unknown> | undefined
  for (const key of keys) {
    const member = object[key]
    const inOrder = sorted(member)
    if (inOrder !== member) {
      copy ??= { ...object }
      copy[key] = inOrder
    }
  }
  return copy ?? value
}
