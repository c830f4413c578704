// Media types as sent in Content-Type and Accept (§1 rule 3), parsed by the grammar of
// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS [ parameter ] ).
//
// The header is a peer's: runner, proxy, analyze and mock all parse it here. A regular expression of
// this grammar (an optional parameter inside a repeated group, with whitespace on both sides of each
// `;`) backtracks exponentially on `a/b ; ; ; … !`, so the grammar is read by hand, one character at
// a time and never twice: the work grows with the header's length, whatever it holds.

export interface MediaType {
  /** `type/subtype`, lower-cased; type and subtype are case-insensitive (RFC 9110 §8.3.1). */
  essence: string
  /** Parameter names lower-cased; values unquoted but otherwise as sent. */
  parameters: Record<string, string>
}

/** Counts the characters a parse looks at, so a test can hold the parser to linear work without a clock. */
export interface ParseMeter {
  steps: number
}

// RFC 9110 §5.6.2 tchar.
const TCHAR = new Uint8Array(128)
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  TCHAR[char.charCodeAt(0)] = 1
const SPACE = 0x20
const TAB = 0x09
const SLASH = 0x2f
const SEMICOLON = 0x3b
const EQUALS = 0x3d
const QUOTE = 0x22
const BACKSLASH = 0x5c

class Scanner {
  position = 0
  constructor(
    private readonly text: string,
    private readonly meter: ParseMeter,
  ) {}

  /** The code of the next character, or -1 at the end. */
  peek(): number {
    this.meter.steps++
    return this.position < this.text.length ? this.text.charCodeAt(this.position) : -1
  }

  atEnd(): boolean {
    return this.position >= this.text.length
  }

  skipWhitespace(): void {
    for (let code = this.peek(); code === SPACE || code === TAB; code = this.peek()) this.position++
  }

  /** A §5.6.2 token, or undefined when none starts here. */
  token(): string | undefined {
    const start = this.position
    for (let code = this.peek(); code >= 0 && code < 128 && TCHAR[code] === 1; code = this.peek()) this.position++
    return this.position > start ? this.text.slice(start, this.position) : undefined
  }

  /** Consumes `code` when it comes next. */
  take(code: number): boolean {
    if (this.peek() !== code) return false
    this.position++
    return true
  }

  /** A §5.6.4 quoted-string after its opening quote, unescaped; undefined when it never closes. */
  quotedRest(): string | undefined {
    let value = ''
    for (;;) {
      const code = this.peek()
      if (code < 0) return undefined
      this.position++
      if (code === QUOTE) return value
      if (code === BACKSLASH) {
        if (this.peek() < 0) return undefined
        value += this.text[this.position++]
      } else {
        value += String.fromCharCode(code)
      }
    }
  }
}

/**
 * The essence and parameters of a media-type header value; undefined when it is malformed.
 * A parameter without `=` (`a/b; charset`) is malformed, as RFC 9110 says (WHATWG's MIME Sniffing
 * would skip it); the first of a repeated parameter wins, RFC 9110 leaving repeated names undefined.
 * @example parseMediaType('application/json; charset=utf-8') // { essence: 'application/json', parameters: { charset: 'utf-8' } }
 */
export function parseMediaType(headerValue: string, meter: ParseMeter = { steps: 0 }): MediaType | undefined {
  const scanner = new Scanner(headerValue, meter)
  scanner.skipWhitespace()
  const type = scanner.token()
  if (type === undefined || !scanner.take(SLASH)) return undefined
  const subtype = scanner.token()
  if (subtype === undefined) return undefined
  // A Map, not an object literal: a parameter named __proto__ must stay a parameter.
  const parameters = new Map<string, string>()
  for (;;) {
    scanner.skipWhitespace()
    if (scanner.atEnd()) break
    if (!scanner.take(SEMICOLON)) return undefined
    scanner.skipWhitespace()
    if (scanner.atEnd()) break
    if (scanner.peek() === SEMICOLON) continue // an empty parameter: `;;` is allowed
    const name = scanner.token()
    if (name === undefined || !scanner.take(EQUALS)) return undefined
    const value = scanner.take(QUOTE) ? scanner.quotedRest() : scanner.token()
    if (value === undefined) return undefined
    const key = name.toLowerCase()
    if (!parameters.has(key)) parameters.set(key, value)
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters: Object.fromEntries(parameters) }
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
