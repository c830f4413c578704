/** Deep equality on JSON values: numbers by value, objects by keys regardless of order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = Object.keys(left).filter((key) => left[key] !== undefined)
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false
  return keys.every((key) => deepEqual(left[key], right[key]))
}

/**
 * `actual` contains the structure of `expected`: objects need the expected keys (extra keys are fine:
 * the spec allows unknown fields), arrays the same length with elements alike in order, scalars equal.
 */
export function isLike(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((x, i) => isLike(actual[i], x))
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    const record = actual as Record<string, unknown>
    return Object.entries(expected).every(([key, value]) => isLike(record[key], value))
  }
  return deepEqual(actual, expected)
}
