/** JSON deeper than this is kept as text in results: reports, masking and JSON.stringify all walk values recursively. */
export const MAX_RECORDED_DEPTH = 200

/** True when `value` nests arrays/objects deeper than `limit`; iterative, so any depth is safe to ask about. */
export function isDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!
    if (typeof current !== 'object' || current === null) continue
    if (depth >= limit) return true
    for (const child of Object.values(current))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 })
  }
  return false
}

/** A value safe to keep in a result: too deep a value becomes a note saying so. */
export function recordable(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value // most checks compare a number or a text
  return isDeeperThan(value, MAX_RECORDED_DEPTH)
    ? `(JSON nested deeper than ${MAX_RECORDED_DEPTH} levels, not shown)`
    : value
}
