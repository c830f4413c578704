/** The value of a JSON text; undefined for no text, blank text, or text that is not JSON (a server may send anything). */
export function parseJsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
