/**
 * HTTP header fields as the runner and the proxy read them: names are case-insensitive (RFC 9110
 * §5.1), so every name here is lower-cased; Node hands raw headers over as `[name, value, …]`.
 */

/** All values of one header, in the order sent, from a raw `[name, value, …]` list. */
export function rawHeaderValues(rawHeaders: readonly string[], name: string): string[] {
  const lower = name.toLowerCase()
  const values: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() === lower) values.push(rawHeaders[i + 1] as string)
  }
  return values
}

/** Lower-case name → its values in the order sent, from a raw `[name, value, …]` list. */
export function headerMap(rawHeaders: readonly string[]): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    const list = map.get(name)
    if (list) list.push(rawHeaders[i + 1] as string)
    else map.set(name, [rawHeaders[i + 1] as string])
  }
  return map
}

/**
 * One value a header: a repeated field's values joined with ", " (RFC 9110 §5.3), except Set-Cookie,
 * whose values may hold commas themselves (RFC 6265 §3): they go one a line.
 */
export function joinHeaders(
  headers: Iterable<readonly [string, string | readonly string[] | undefined]>,
): Record<string, string> {
  const joined: Record<string, string> = {}
  for (const [name, value] of headers) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    const values = typeof value === 'string' ? [value] : value
    const separator = key === 'set-cookie' ? '\n' : ', '
    joined[key] = joined[key] === undefined ? values.join(separator) : [joined[key], ...values].join(separator)
  }
  return joined
}
