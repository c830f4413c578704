/**
 * JSON with object keys in sorted order, so that two recordings of the same traffic diff cleanly
 * (STYLE §2.12). Arrays keep their order; `undefined` members are left out as JSON.stringify does.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key]
    if (member !== undefined) sorted[key] = sortKeys(member)
  }
  return sorted
}
