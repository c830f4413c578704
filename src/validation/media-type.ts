// Media types as sent in Content-Type and Accept (§1 rule 3), parsed by the grammar of
// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS [ parameter ] ).
import { MIMEType } from 'node:util'

export interface MediaType {
  /** `type/subtype`, lower-cased; type and subtype are case-insensitive (RFC 9110 §8.3.1). */
  essence: string
  /** Parameter names lower-cased; values unquoted but otherwise as sent. */
  parameters: Record<string, string>
}

// RFC 9110 §5.6.2 token and §5.6.4 quoted-string; OWS is spaces and tabs.
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const QUOTED_STRING = '"(?:[^"\\\\]|\\\\.)*"'
const PARAMETER = `(?:${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))?`
const MEDIA_TYPE = new RegExp(`^[ \\t]*${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${PARAMETER})*[ \\t]*$`)

/**
 * The essence and parameters of a media-type header value; undefined when it is malformed. Node's
 * MIMEType parses it; it follows the WHATWG MIME Sniffing rules, which skip a malformed parameter
 * (`a/b; charset`) that RFC 9110 does not allow, so the RFC's grammar is checked first.
 * @example parseMediaType('application/json; charset=utf-8') // { essence: 'application/json', parameters: { charset: 'utf-8' } }
 */
export function parseMediaType(headerValue: string): MediaType | undefined {
  if (!MEDIA_TYPE.test(headerValue)) return undefined
  try {
    const parsed = new MIMEType(headerValue)
    // MIMEType keeps the first of a repeated parameter, as we want: RFC 9110 leaves repeated names undefined.
    return { essence: parsed.essence, parameters: Object.fromEntries(parsed.params) }
  } catch {
    return undefined
  }
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
