/** JSON Pointers (RFC 6901), as Ajv reports them and the proxy's findings carry them. */

/** `a/b~c` → `a~1b~0c`: `~` first, so that the `~1` written for `/` is not escaped again. */
export function escapePointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** `a~1b~0c` → `a/b~c`: `~1` first, so that `~01` becomes `~1`, not `/`. */
export function unescapePointerSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

/** `/items/0/a~1b` → ['items', '0', 'a/b']; '' (the whole document) → []. */
export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(unescapePointerSegment)
}

/** ['items', '0', 'a/b'] → `/items/0/a~1b`. */
export function pointerOf(segments: readonly (string | number)[]): string {
  let pointer = ''
  for (const segment of segments) pointer += `/${escapePointerSegment(String(segment))}`
  return pointer
}
