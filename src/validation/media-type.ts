// Media types as sent in Content-Type and Accept (§1 rule 3), parsed by the grammar of
// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS [ parameter ] ).

export interface MediaType {
  /** `type/subtype`, lower-cased; type and subtype are case-insensitive (RFC 9110 §8.3.1). */
  essence: string
  /** Parameter names lower-cased; values unquoted but otherwise as sent. */
  parameters: Record<string, string>
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const QUOTED_STRING = /^"((?:[^"\\]|\\.)*)"$/

/**
 * The essence and parameters of a media-type header value; undefined when it is malformed.
 * @example parseMediaType('application/json; charset=utf-8') // { essence: 'application/json', parameters: { charset: 'utf-8' } }
 */
export function parseMediaType(headerValue: string): MediaType | undefined {
  const [essencePart = '', ...parameterParts] = splitOutsideQuotes(headerValue)
  const [type = '', subtype = '', ...rest] = essencePart.trim().split('/')
  if (rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined
  const parameters: Record<string, string> = {}
  for (const part of parameterParts) {
    const text = part.trim()
    if (text === '') continue // RFC 9110 allows empty parameters ("a/b;;c=d")
    const equals = text.indexOf('=')
    if (equals <= 0) return undefined
    const name = text.slice(0, equals).toLowerCase()
    const value = unquote(text.slice(equals + 1))
    if (!TOKEN.test(name) || value === undefined) return undefined
    // The first occurrence wins; RFC 9110 leaves repeated names undefined.
    if (!(name in parameters)) parameters[name] = value
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters }
}

/**
 * True when a header value names the expected media type, ignoring case and any parameters.
 * @example sameMediaType('application/VND.com.service.User+json; charset=utf-8', 'application/vnd.com.service.User+json') // true
 */
export function sameMediaType(headerValue: string | undefined, expected: string): boolean {
  if (headerValue === undefined) return false
  const actual = essenceOf(headerValue)
  const wanted = essenceOf(expected)
  return actual !== undefined && wanted !== undefined && actual === wanted
}

// The proxy compares the same few header values for every exchange: each is parsed once.
const essences = new Map<string, string | undefined>()
const MAX_CACHED_ESSENCES = 1000

function essenceOf(headerValue: string): string | undefined {
  if (essences.has(headerValue)) return essences.get(headerValue)
  const essence = parseMediaType(headerValue)?.essence
  if (essences.size >= MAX_CACHED_ESSENCES) essences.clear()
  essences.set(headerValue, essence)
  return essence
}

function unquote(value: string): string | undefined {
  if (TOKEN.test(value)) return value
  const quoted = QUOTED_STRING.exec(value)
  return quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : undefined
}

function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = []
  let current = ''
  let inQuotes = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? ''
    if (char === '\\' && inQuotes) {
      current += char + (text[i + 1] ?? '')
      i++
    } else if (char === ';' && !inQuotes) {
      parts.push(current)
      current = ''
    } else {
      if (char === '"') inQuotes = !inQuotes
      current += char
    }
  }
  parts.push(current)
  return parts
}
