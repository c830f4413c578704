/**
 * The dotted JSON paths users write and read: `--redact $.path[*].latitude` on the proxy, check
 * targets such as `body.items[3].has_map` in the runner's reports.
 */
import { pointerSegments } from './json-pointer.js'

/** `[*]` or `*`: every item of an array, every field of an object. */
export const ANY = Symbol('any')
export type JsonPathSegment = string | typeof ANY

/**
 * `$.path[*].latitude` → ['path', ANY, 'latitude']; `a['b.c'][0]` → ['a', 'b.c', '0']. An index stays
 * text: it names an array item or an object field alike. Throws on a path with no segment.
 */
export function parseJsonPath(path: string): JsonPathSegment[] {
  const body = path.trim().replace(/^\$\.?/, '')
  const segments: JsonPathSegment[] = []
  for (const match of body.matchAll(/([^.[\]]+)|\[(\*|\d+|'[^']*'|"[^"]*")\]/g)) {
    const name = match[1]
    const bracket = match[2]
    if (name !== undefined) segments.push(name === '*' ? ANY : name)
    else if (bracket === '*') segments.push(ANY)
    else if (bracket !== undefined) segments.push(bracket.replace(/^['"]|['"]$/g, ''))
  }
  if (segments.length === 0) throw new Error(`not a JSON path: "${path}"`)
  return segments
}

/** `/items/3/has_map` → `.items[3].has_map` (to follow a root name such as `body`); '' → ''. */
export function pathOfPointer(pointer: string): string {
  return pointerSegments(pointer)
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('')
}

/** The value a path leads to; undefined when the path leaves the document or meets ANY. */
export function valueAtPath(document: unknown, segments: readonly JsonPathSegment[]): unknown {
  let value = document
  for (const segment of segments) {
    if (segment === ANY) return undefined
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(segment)) return undefined
      value = value[Number(segment)]
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment]
    } else {
      return undefined
    }
  }
  return value
}
