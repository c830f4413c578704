/**
 * Secret scrubbing shared by the runner (src/execute/finalize/redact.ts) and the proxy (proxy/recording/redaction.ts):
 * one set of rules for what counts as a secret and for every form in which it can reach a byte we write.
 *
 * By value, a secret is found in any mixture of its raw characters, percent-encoding (either case of
 * hex, `'` as `%27`, a space as `+`), percent-encoding applied twice (`/` as `%252F`), JSON escapes
 * (`\u00XX` in either case, `\"`, `\/`), HTML character references (`&#x2F;`, `&#47;`, `&sol;`, …: an
 * HTML error page escapes what it echoes) and in its base64 / base64url forms (standalone, or inside a
 * longer base64 text at any byte alignment).
 * By name, the Authorization header and token-carrying fields (in any case style: `access_token`,
 * `accessToken`, `AccessToken`, `access-token`) are redacted whatever the value's length, since a short
 * value cannot be searched for safely. By shape, a JSON Web Token (RFC 7519: base64url header starting
 * `eyJ`, payload, signature) is redacted wherever it stands, whatever field holds it.
 */

/** A secret shorter than this cannot be searched for by value without scrubbing ordinary text. */
export const MIN_SCRUBBED_SECRET_LENGTH = 4

/** Header names whose whole value is a credential. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
])

/**
 * Query, form and JSON field names that carry credentials (RFC 6749 §4–6, RFC 6750 §2.3, common API-key
 * names), in any case style: the words joined by `_`, `-` or nothing (matched without regard to case).
 */
const CREDENTIAL_NAMES = '(?:access|refresh|id|auth)[_-]?token|token|api[_-]?key|client[_-]?secret|password'
const CREDENTIAL_FIELD = new RegExp(`^(?:${CREDENTIAL_NAMES})$`, 'i')
/**
 * A quick look before the full pattern: every credential name ends in one of these words, and the
 * pattern wants it right before `=` or `"…:`. A recording line always holds `"_tokenId":`, which this
 * passes over (a bare /token/ would not).
 */
const CREDENTIAL_WORD = /(?:token|key|secret|password)(?:=|"\s*:)/i

/**
 * `name=value` in a query string or form body, and `"name": "value"` in JSON text, for a credential
 * name: the value is replaced whatever its length (a value already redacted, `[…`, is left as it is).
 */
const CREDENTIAL_PAIR = new RegExp(
  `((?:^|[?&;#\\s])(?:${CREDENTIAL_NAMES})=)(?!\\[)[^&#\\s"'<>]+|("(?:${CREDENTIAL_NAMES})"\\s*:\\s*")(?!\\[)((?:[^"\\\\]|\\\\.)+)"`,
  'gi',
)

/**
 * A JSON Web Token (RFC 7519 §3, a JWS compact serialization): a base64url header that begins with
 * `{"` (so `eyJ`), a payload and a signature (empty for an unsecured token), joined by dots. Each part
 * is a run of one character class, so matching stays linear in the text.
 */
const JWT = /(?<![\w-])eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g

/** `name=value` pairs of a URL's query and fragment (an OAuth implicit grant puts the token in the fragment, RFC 6749 §4.2.2). */
const URL_PAIR = new RegExp(`(?:^|[?&;#])(${CREDENTIAL_NAMES})=([^&#\\s"'<>]+)`, 'gi')

/** The values of credential pairs in a URL's query or fragment (`…#access_token=…&token_type=bearer`), decoded. */
export function credentialsInUrl(text: string): string[] {
  if (!text.includes('=')) return []
  const values: string[] = []
  for (const match of text.matchAll(URL_PAIR)) {
    const raw = (match[2] as string).replace(/\+/g, ' ')
    try {
      values.push(decodeURIComponent(raw))
    } catch {
      values.push(raw)
    }
  }
  return values
}

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase())
}

export function isCredentialField(name: string): boolean {
  return CREDENTIAL_FIELD.test(name)
}

/** Replaces every known secret, in every form, in a text. */
export type Scrub = (text: string) => string

/**
 * Builds one scrubber from secret → replacement pairs; secrets shorter than MIN_SCRUBBED_SECRET_LENGTH
 * are left out of the search by value. Longest first, so a secret containing another is replaced
 * whole. Then credential fields (`access_token=…`, `"refresh_token": "…"`) get `fieldPlaceholder`.
 */
export function createScrub(secrets: Iterable<readonly [string, string]>, fieldPlaceholder = '[REDACTED]'): Scrub {
  const byName = (text: string): string =>
    text.replace(CREDENTIAL_PAIR, (match, pairName: string | undefined, jsonName: string | undefined) =>
      pairName !== undefined
        ? `${pairName}${fieldPlaceholder}`
        : jsonName !== undefined
          ? `${jsonName}${fieldPlaceholder}"`
          : match,
    )
  const byShape = (text: string): string => text.replace(JWT, fieldPlaceholder)
  const byValue = createScrubByValue(secrets)
  // One pass over the text finds what each step needs (an escape, a credential word, `eyJ`), rather
  // than one search per step: on a recording line of tens of KB each search is a scan of its own.
  const trigger = new RegExp(`(${byValue.escapes})|(${CREDENTIAL_WORD.source})|(eyJ)`, 'gi')
  return (text) => {
    if (text.length < MIN_SCRUBBED_SECRET_LENGTH) return text
    let encoded = false
    let named = false
    let shaped = false
    trigger.lastIndex = 0
    // Up to the first escape: past it the text takes the full pattern anyway, and in a JSON line whose
    // secrets hold `\` (`\"` everywhere) looking on would stop at every character escaped.
    for (let match = trigger.exec(text); match !== null && !encoded; match = trigger.exec(text)) {
      if (match[1] !== undefined) encoded = true
      else if (match[2] !== undefined) named = true
      else shaped = true
    }
    const scrubbed = byValue.scrub(text, encoded)
    // A replacement holds no credential word nor `eyJ`, but a text changed is looked at again all the same.
    if (encoded || scrubbed !== text) {
      named = CREDENTIAL_WORD.test(scrubbed)
      shaped = scrubbed.includes('eyJ')
    }
    const afterName = named ? byName(scrubbed) : scrubbed
    return withoutUserinfo(shaped ? byShape(afterName) : afterName, fieldPlaceholder)
  }
}

/** `scheme://user:password@host`: the userinfo of a URL, whatever its length (RFC 3986 §3.2.1). */
const URL_USERINFO = /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/)(?!\[REDACTED)[^/?#@\s"'<>]+@/g

/**
 * Credentials in a URL (`--base-url http://user:password@staging`, a `proxy --target`, a link a server
 * sent) are secrets like tokens: the userinfo is replaced wherever a URL is written.
 */
export function withoutUserinfo(text: string, placeholder = '[REDACTED]'): string {
  return text.includes('@') ? text.replace(URL_USERINFO, `$1${placeholder}@`) : text
}

/** By-value scrubbing: `escapes`, a pattern of what the encoded forms need in a text; `scrub`, told whether the text holds one. */
interface ScrubByValue {
  readonly escapes: string
  readonly scrub: (text: string, encoded: boolean) => string
}

function createScrubByValue(secrets: Iterable<readonly [string, string]>): ScrubByValue {
  const usable = [...new Map(secrets)]
    .filter(([secret]) => secret.length >= MIN_SCRUBBED_SECRET_LENGTH)
    .sort((a, b) => b[0].length - a[0].length)
  // Nothing to find: a pattern that never matches.
  if (usable.length === 0) return { escapes: '(?!)', scrub: (text) => text }
  const replacementOf = new Map<string, string>()
  const alternatives: string[] = []
  const literal: [string, string][] = []
  usable.forEach(([secret, replacement], index) => {
    const group = `s${index}`
    replacementOf.set(group, replacement)
    const base64 = base64Forms(secret)
    alternatives.push(`(?<${group}>${[charwisePattern(secret), ...base64.map(escapeRegExp)].join('|')})`)
    for (const form of [secret, ...base64]) literal.push([form, replacement])
  })
  literal.sort((a, b) => b[0].length - a[0].length)
  // Each alternative is a fixed sequence of fixed-length choices: matching stays linear in the text.
  const pattern = new RegExp(alternatives.join('|'), 'g')
  // Which escapes the secrets could hide behind: a text without any of them holds only literal forms.
  const all = usable.map(([secret]) => secret).join('')
  const shortEscapes = /["\\/]/.test(all)
  // A space may be written `+` (a form body, a query): with a few spaces, each spelling is a literal
  // form too, so `+` in a text (as in every `…+json` media type) does not need the full pattern.
  const spelled = usable.every(([secret]) => spaceCount(secret) <= MAX_SPELLED_SPACES)
  if (spelled) {
    for (const [secret, replacement] of usable)
      for (const form of plusSpellings(secret)) literal.push([form, replacement])
    literal.sort((a, b) => b[0].length - a[0].length)
  }
  const plusMatters = !spelled && all.includes(' ')
  const escapes = [
    PERCENT_ESCAPE.source,
    '\\\\u',
    CHARACTER_REFERENCE.source,
    ...(shortEscapes ? ['\\\\'] : []),
    ...(plusMatters ? ['\\+'] : []),
  ].join('|')
  return {
    escapes,
    scrub: (text, encoded) => {
      // Without an escape in the text only the literal forms can occur.
      if (!encoded) {
        let out = text
        for (const [form, replacement] of literal) if (out.includes(form)) out = out.split(form).join(replacement)
        return out
      }
      return text.replace(pattern, (...args) => {
        const groups = args.at(-1) as Record<string, string | undefined>
        for (const [group, replacement] of replacementOf) if (groups[group] !== undefined) return replacement
        return ''
      })
    },
  }
}

const PERCENT_ESCAPE = /%[0-9a-f]{2}/i
/** An HTML character reference, numeric or named (`&#x2F;`, `&#47;`, `&sol;`). */
const CHARACTER_REFERENCE = /&(?:#|[a-z]+;)/i

/** Named character references (HTML) of the characters a token or password may hold. */
const NAMED_REFERENCES: Readonly<Record<string, readonly string[]>> = {
  '/': ['sol'],
  '&': ['amp'],
  '"': ['quot'],
  "'": ['apos'],
  '<': ['lt'],
  '>': ['gt'],
  '+': ['plus'],
  '=': ['equals'],
  ':': ['colon'],
  '.': ['period'],
  _: ['lowbar', 'UnderBar'],
}

/** Secrets with more spaces than this are left to the full pattern whenever a text holds `+` (2^n spellings). */
const MAX_SPELLED_SPACES = 4

function spaceCount(secret: string): number {
  return secret.split(' ').length - 1
}

/** The secret with each of its spaces written `+`, in every combination but the one with none. */
function plusSpellings(secret: string): string[] {
  const [first = '', ...rest] = secret.split(' ')
  let forms = [first]
  for (const part of rest) forms = forms.flatMap((form) => [`${form} ${part}`, `${form}+${part}`])
  return forms.slice(1) // the first keeps every space: the secret itself
}

/** One character class per character of the secret: raw, percent-encoded (once or twice), JSON-escaped, an HTML reference. */
function charwisePattern(secret: string): string {
  return [...secret].map(charForms).join('')
}

function charForms(char: string): string {
  const forms = [escapeRegExp(char)]
  const bytes = Buffer.from(char, 'utf8')
  forms.push([...bytes].map((byte) => `%${hexDigits(byte, 2)}`).join(''))
  forms.push([...bytes].map((byte) => `%25${hexDigits(byte, 2)}`).join(''))
  const codePoint = char.codePointAt(0) as number
  // `&#x2F;`, `&#X2f;`, `&#047;`: leading zeros allowed, as HTML allows them.
  forms.push(`&#[xX]0*${hexDigits(codePoint, 1)};`, `&#0*${codePoint};`)
  for (const name of NAMED_REFERENCES[char] ?? []) forms.push(`&${name};`)
  const units = [...Array(char.length).keys()].map((i) => char.charCodeAt(i))
  forms.push(units.map((unit) => `\\\\u${hexDigits(unit, 4)}`).join(''))
  if (char === ' ') forms.push('\\+')
  if (char === '"' || char === '\\' || char === '/') forms.push(`\\\\${escapeRegExp(char)}`)
  return `(?:${forms.join('|')})`
}

/** `0x2f` → `[2][fF]`: hex digits that match either case. */
function hexDigits(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('')
}

/** base64 and base64url of the secret, whole and at each byte alignment inside a longer text. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const forms = new Set<string>()
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    // Characters whose six bits come from the secret alone: skip those mixed with the prefix or padding.
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6))
    if (core.length >= MIN_SCRUBBED_SECRET_LENGTH) forms.add(core)
  }
  forms.add(bytes.toString('base64'))
  for (const form of [...forms]) forms.add(form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))
  return [...forms].filter((form) => form.length >= MIN_SCRUBBED_SECRET_LENGTH)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** Options of scrubDeep. */
export interface ScrubDeepOptions {
  /** A replacement for a string by the name of its field (an Authorization header, a token field), or undefined. */
  readonly redactField?: (key: string, value: string) => string | undefined
  /**
   * What earlier calls made with the same options returned: taken as they are, not walked again, and
   * what this call returns joins them. What a redactor has already produced is redacted.
   */
  readonly scrubbed?: WeakSet<object>
}

/**
 * `root` with `scrub` applied to every string and key, copy on write: an object or array in which
 * nothing changes is returned itself, so that a result with no secret in it costs a walk and no copy
 * (a run redacts every step's result, and most of it holds none). Only the root joins `scrubbed`:
 * everything inside it is scrubbed too, and a set entry per object would last as long as the run.
 *
 * Nesting up to WALKED_DEPTH is walked by recursion (no frame object per level); a deeper value
 * (a body nested 100,000 levels, or a cycle) is copied whole with an explicit stack instead.
 */
export function scrubDeep<T>(root: T, scrub: Scrub, options: ScrubDeepOptions = {}): T {
  if (typeof root === 'string') return scrub(root) as T
  if (typeof root !== 'object' || root === null) return root
  const { scrubbed } = options
  if (scrubbed?.has(root)) return root
  let out: unknown
  try {
    out = scrubOnWrite(root, scrub, options, 0)
  } catch (error) {
    if (error !== TOO_DEEP) throw error
    out = scrubByCopy(root, scrub, options)
  }
  scrubbed?.add(out as object)
  return out as T
}

/** Deeper than this, scrubOnWrite gives up and scrubDeep copies with an explicit stack. */
const WALKED_DEPTH = 200
const TOO_DEEP = Symbol('too deep')

function scrubOnWrite(value: unknown, scrub: Scrub, options: ScrubDeepOptions, depth: number, key?: string): unknown {
  if (typeof value === 'string') {
    const byName = key !== undefined && options.redactField ? options.redactField(key, value) : undefined
    return byName ?? scrub(value)
  }
  if (typeof value !== 'object' || value === null) return value
  if (options.scrubbed?.has(value)) return value
  if (depth >= WALKED_DEPTH) throw TOO_DEEP
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const next = scrubOnWrite(item, scrub, options, depth + 1)
      if (copy === undefined && next !== item) copy = value.slice(0, i)
      copy?.push(next)
    }
    return copy ?? value
  }
  const source = value as Record<string, unknown>
  let copy: Record<string, unknown> | undefined
  for (const name in source) {
    if (!Object.hasOwn(source, name)) continue
    const copyName = scrub(name)
    const child = source[name]
    const next = scrubOnWrite(child, scrub, options, depth + 1, name)
    if (copy === undefined && (copyName !== name || !Object.is(next, child))) {
      copy = {}
      // Every key before this one came back as it was.
      for (const earlier in source) {
        if (earlier === name) break
        if (Object.hasOwn(source, earlier)) setField(copy, earlier, source[earlier])
      }
    }
    if (copy !== undefined) setField(copy, copyName, next)
  }
  return copy ?? value
}

/**
 * A copy of a JSON-like value with `scrub` applied to every string and key, walked with an explicit
 * stack so that any depth (a body nested 100,000 levels) is handled without recursion.
 */
function scrubByCopy(root: object, scrub: Scrub, options: ScrubDeepOptions): unknown {
  const { redactField, scrubbed } = options
  const copies = new Map<object, unknown>()
  const stack: [object, Record<string, unknown> | unknown[]][] = []
  const visit = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string')
      return (key !== undefined && redactField ? redactField(key, value) : undefined) ?? scrub(value)
    if (typeof value !== 'object' || value === null) return value
    if (scrubbed?.has(value)) return value
    const seen = copies.get(value)
    if (seen !== undefined) return seen
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {}
    copies.set(value, copy)
    stack.push([value, copy])
    return copy
  }
  const top = visit(root)
  while (stack.length > 0) {
    const [source, target] = stack.pop()!
    if (Array.isArray(source)) {
      const list = target as unknown[]
      for (let i = 0; i < source.length; i++) list[i] = visit(source[i])
    } else {
      const record = target as Record<string, unknown>
      for (const key in source) {
        if (!Object.hasOwn(source, key)) continue
        setField(record, scrub(key), visit((source as Record<string, unknown>)[key], key))
      }
    }
  }
  return top
}

/**
 * A "__proto__" key in a parsed body is data, not the copy's prototype: only it needs defineProperty
 * (which costs ten times a plain assignment, on every key of every report).
 */
function setField(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
  else record[key] = value
}
