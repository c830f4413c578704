/**
 * A JSON object, as `JSON.parse` or a YAML reader gives for `{…}`: not null, not an array. Its prototype
 * is not looked at (a parsed body's objects are plain, and a `__proto__` key in one is data).
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
