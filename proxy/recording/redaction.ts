/**
 * Secrets out before anything is written.
 *
 * - Credential headers (`authorization`, `proxy-authorization`, `cookie`, `set-cookie` and any added by
 *   `--redact-header`) keep their presence and, for `Authorization`, their scheme; values become
 *   `[redacted tok_…]`, where `tok_…` is an HMAC-SHA256 of the value under a key that lives only in
 *   memory (random per recording) or comes from FITCONFORM_REDACT_KEY, so two exchanges with the same
 *   token show the same id and the token itself is never stored.
 * - Redaction by value: every secret learnt from a header, a token-carrying query parameter (RFC 6750
 *   §2.3 `access_token`, `token`, `api_key`, …), a form or JSON body field (`refresh_token`,
 *   `client_secret`, …) is replaced wherever else it appears, in every encoded form, by the scrubber
 *   the runner uses too (src/shared/secrets.ts); those fields themselves are redacted by name whatever
 *   the length of their value.
 * - Body fields by JSON path (`--redact`, `--redact-personal`): the value is replaced with one of the
 *   same JSON type (`"[redacted]"`, `0`, `false`), so a redacted body still has the recorded shape.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { PATH_POINT_PERSONAL_FIELDS, PROFILE_PERSONAL_FIELDS } from '../../src/model/personal-data-fields.js'
import {
  CREDENTIAL_HEADERS,
  createScrub,
  credentialsInUrl,
  isCredentialField,
  MIN_SCRUBBED_SECRET_LENGTH,
  type Scrub,
} from '../../src/shared/secrets.js'
import { ANY, parseJsonPath, type JsonPathSegment } from '../../src/shared/json-path.js'
import { escapePointerSegment } from '../../src/shared/json-pointer.js'
import { TextMemo } from '../analyze/text-memo.js'

/** `a=1&b=2`: a form-encoded body (no spaces, no JSON). */
const FORM_BODY = /^[\w.~%+-]+=[^&\s]*(?:&[\w.~%+-]+=[^&\s]*)*$/

/** Header names whose values are secrets, lower-case (STYLE §2.12's default `redactHeaders`, and API-key headers). */
const DEFAULT_REDACT_HEADERS: readonly string[] = [...CREDENTIAL_HEADERS]

/** Text that may hold a credential field: a likely name, in any case, or a `\u` escape hiding one. */
const TOKEN_FIELD_HINT = /token|key|secret|password|\\u[0-9a-f]{4}/i

/**
 * TOKEN_FIELD_HINT's answers by text: a resource read again answers the same bytes, and the memos
 * that validate and relate bodies have hashed the same string already, so a lookup costs less than
 * the search. A pure function of the text, so one memo serves every scrubber.
 */
const tokenFieldHints = new TextMemo<boolean>()

function mayHoldTokenField(text: string): boolean {
  return tokenFieldHints.get('', text, () => TOKEN_FIELD_HINT.test(text))
}

/** Personal data by representation: the field list of src/model, placed in each representation that holds it. */
const PATH_POINT_PATHS = PATH_POINT_PERSONAL_FIELDS.map((field) => `path[*].${field}`)
const PERSONAL_PATHS: Readonly<Record<string, readonly string[]>> = {
  FitnessActivity: PATH_POINT_PATHS,
  NewFitnessActivity: PATH_POINT_PATHS,
  LiveFitnessActivityUpdate: PATH_POINT_PATHS,
  FitnessActivityEdit: PATH_POINT_PATHS,
  Profile: PROFILE_PERSONAL_FIELDS,
  // §4 endpoint 6: an edit is a Profile with only the fields to change, so any of them may come.
  ProfileEdit: PROFILE_PERSONAL_FIELDS,
}

export interface RedactionOptions {
  /** HMAC key; by default 32 random bytes kept in memory only. */
  readonly key?: Buffer | string
  /** Extra header names to redact (added to DEFAULT_REDACT_HEADERS). */
  readonly headers?: readonly string[]
  /** JSON paths (`a.b`, `items[*].uri`, `$.path[*].latitude`) redacted in every JSON body. */
  readonly bodyPaths?: readonly string[]
  /** Also redact PERSONAL_PATHS. */
  readonly personal?: boolean
}

/** Everything a `SecretScrubber` is made of, as plain data (`settings()`, `fromSettings()`). */
export interface RedactionSettings {
  readonly key: Uint8Array | string
  readonly headers: readonly string[]
  readonly bodyPaths: readonly string[]
  readonly personal: boolean
  readonly secrets?: readonly (readonly [string, string])[]
}

/** The JSON syntax a recording line is cut next to (recording-line.ts). */
const SEPARATOR = /[,:]/

/** Token ids kept for reuse; past this many, the cache starts over. */
const MAX_CACHED_IDS = 10_000

/**
 * Scrubbed texts kept for texts seen again: header values repeat from exchange to exchange, and so
 * does a polled page. The scrubber is a pure function of the text and the secrets known, so the memo
 * starts over whenever a secret is learnt. Bounded as the validation memo is.
 */
function scrubMemo(): TextMemo<string> {
  return new TextMemo()
}

/** Holds the key and the secrets seen so far; one per recording session. */
export class SecretScrubber {
  readonly #key: Buffer | string
  readonly #headers: ReadonlySet<string>
  readonly #bodyPaths: readonly JsonPathSegment[][]
  readonly #personal: boolean
  readonly #settings: RedactionSettings
  /** Secret → its replacement, longest first when applied. */
  readonly #secrets = new Map<string, string>()
  /** Built again from #secrets when a new secret is learnt. */
  #scrub: Scrub = createScrub([], '[redacted]')
  #scrubbed = scrubMemo()
  /** `prefix secret` → id: the same token comes with every request, its HMAC is computed once. */
  readonly #ids = new Map<string, string>()
  /** Counts the secrets learnt: what was scrubbed at one generation is scrubbed alike while it lasts. */
  #generation = 0
  /** Whether a secret holds `,` or `:` (see `scrubsLineInParts`). */
  #separatorInSecret = false

  constructor(options: RedactionOptions = {}) {
    this.#key = options.key ?? randomBytes(32)
    this.#headers = new Set([...DEFAULT_REDACT_HEADERS, ...(options.headers ?? []).map((name) => name.toLowerCase())])
    this.#bodyPaths = (options.bodyPaths ?? []).map(parseJsonPath)
    this.#personal = options.personal === true
    this.#settings = {
      key: this.#key,
      headers: [...(options.headers ?? [])],
      bodyPaths: [...(options.bodyPaths ?? [])],
      personal: this.#personal,
    }
  }

  /**
   * What another thread needs to build an equal redactor (the same key, so the same ids), and the
   * secrets learnt so far. Stays in memory: it is handed to the recording worker, never written.
   */
  settings(): RedactionSettings {
    return { ...this.#settings, secrets: [...this.#secrets] }
  }

  /** A redactor equal to the one `settings()` came from. */
  static fromSettings(settings: RedactionSettings): SecretScrubber {
    const key = typeof settings.key === 'string' ? settings.key : Buffer.from(settings.key)
    const redactor = new SecretScrubber({ ...settings, key })
    for (const [secret, replacement] of settings.secrets ?? []) {
      redactor.#secrets.set(secret, replacement)
      redactor.#separatorInSecret ||= SEPARATOR.test(secret)
    }
    redactor.#scrub = createScrub(redactor.#secrets, '[redacted]')
    redactor.#scrubbed = scrubMemo()
    return redactor
  }

  /** A short keyed hash naming a secret without revealing it. */
  idOf(secret: string, prefix = 'tok'): string {
    const cacheKey = `${prefix} ${secret}`
    let id = this.#ids.get(cacheKey)
    if (id === undefined) {
      id = `${prefix}_${createHmac('sha256', this.#key).update(secret).digest('hex').slice(0, 12)}`
      // Bounded: a client that sends a new cookie with every request must not grow it for ever.
      if (this.#ids.size >= MAX_CACHED_IDS) this.#ids.clear()
      this.#ids.set(cacheKey, id)
    }
    return id
  }

  isRedactedHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase())
  }

  /** True when bodies need a JSON walk (some paths are configured). */
  hasBodyPaths(): boolean {
    return this.#personal || this.#bodyPaths.length > 0
  }

  /**
   * Learns the secrets of a request or response before anything of it is written; returns the id of
   * the bearer token (or whatever credentials `Authorization` carries), if any.
   */
  learn(headers: readonly (readonly [string, string])[], url?: URL): string | undefined {
    let tokenId: string | undefined
    for (const [name, value] of headers) {
      const lower = name.toLowerCase()
      // A redirect to `…#access_token=…` (RFC 6749 §4.2.2) hands the token out in a header's URL.
      for (const secret of credentialsInUrl(value)) this.#remember(secret, `[redacted ${this.idOf(secret)}]`)
      if (!this.#headers.has(lower)) continue
      if (lower === 'authorization' || lower === 'proxy-authorization') {
        const { scheme, credentials } = splitCredentials(value)
        const id = this.idOf(credentials)
        this.#remember(credentials, `[redacted ${id}]`)
        this.#remember(value.trim(), `[redacted ${id}]`)
        // A Basic password (RFC 7617 §2) is typed again elsewhere (a login form, a body): searched for on its own.
        const password = scheme?.toLowerCase() === 'basic' ? basicPassword(credentials) : undefined
        if (password !== undefined) this.#remember(password, `[redacted ${this.idOf(password, 'pw')}]`)
        if (lower === 'authorization') tokenId = id
      } else if (lower === 'cookie' || lower === 'set-cookie') {
        for (const [, cookieValue] of cookiePairs(value, lower === 'set-cookie')) {
          this.#remember(cookieValue, `[redacted ${this.idOf(cookieValue, 'ck')}]`)
        }
      } else {
        this.#remember(value, `[redacted ${this.idOf(value, 'hdr')}]`)
      }
    }
    for (const [name, value] of url?.searchParams ?? []) {
      if (isCredentialField(name)) this.#remember(value, `[redacted ${this.idOf(value)}]`)
    }
    return tokenId
  }

  /**
   * Learns token-shaped fields of a JSON body (an OAuth 2.0 token response, RFC 6749 §5.1, proxied
   * before the token is first used), so that their values are redacted wherever they appear.
   */
  learnFromBody(body: unknown, text?: string): void {
    // The walk is skipped when the text cannot hold a token field (escaped names may, so they are walked).
    if (text !== undefined && !mayHoldTokenField(text)) return
    if (body === undefined && text !== undefined && FORM_BODY.test(text)) {
      // An OAuth request (RFC 6749 §4.1.3, §6): refresh_token=…&client_secret=…
      for (const [name, value] of new URLSearchParams(text))
        if (isCredentialField(name)) this.#remember(value, `[redacted ${this.idOf(value)}]`)
      return
    }
    // An explicit stack: a body nested 100,000 levels deep must not overflow ours.
    const stack: unknown[] = [body]
    while (stack.length > 0) {
      const value = stack.pop()
      if (Array.isArray(value)) stack.push(...value)
      else if (value !== null && typeof value === 'object') {
        for (const [key, element] of Object.entries(value)) {
          if (typeof element === 'string' && isCredentialField(key))
            this.#remember(element, `[redacted ${this.idOf(element)}]`)
          else stack.push(element)
        }
      }
    }
  }

  /** `learnFromBody` for a body view (analyze/exchange-view.ts), whose JSON is read only when its text may name a credential field. */
  learnFromBodyView(body: { readonly text?: string; readonly json?: unknown }): void {
    if (body.text !== undefined && !mayHoldTokenField(body.text)) return
    this.learnFromBody(body.json, body.text)
  }

  /** The header as it may be written. */
  redactHeader(name: string, value: string): string {
    const lower = name.toLowerCase()
    if (!this.#headers.has(lower)) return this.scrub(value)
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const { scheme, credentials } = splitCredentials(value)
      const redacted = `[redacted ${this.idOf(credentials)}]`
      return scheme === undefined ? redacted : `${scheme} ${redacted}`
    }
    if (lower === 'cookie' || lower === 'set-cookie') return this.#redactCookieHeader(value, lower === 'set-cookie')
    return `[redacted ${this.idOf(value, 'hdr')}]`
  }

  /** Replaces every known secret in a text, in every encoded form, and credential fields by name. */
  scrub(text: string): string {
    return this.#scrubbed.get('', text, () => this.#scrub(text))
  }

  /** Same as `scrub`, for bytes that are written as base64. */
  scrubBytes(bytes: Buffer): Buffer {
    let out = bytes
    for (const [secret, replacement] of [...this.#secrets].sort((a, b) => b[0].length - a[0].length)) {
      const needle = Buffer.from(secret)
      if (out.indexOf(needle) === -1) continue
      const parts: Buffer[] = []
      let from = 0
      let at: number
      while ((at = out.indexOf(needle, from)) !== -1) {
        parts.push(out.subarray(from, at), Buffer.from(replacement))
        from = at + needle.length
      }
      parts.push(out.subarray(from))
      out = Buffer.concat(parts)
    }
    return out
  }

  /** The final check of a written line (the scrubber finds JSON-escaped forms too); each line is new, so not kept. */
  scrubLine(line: string): string {
    return this.#scrub(line)
  }

  /** Changes whenever a secret is learnt: a text scrubbed before then may need scrubbing again. */
  get generation(): number {
    return this.#generation
  }

  /**
   * Whether `scrubLine` of a JSON line equals the concatenation of `scrubLine` of its parts, when the
   * line is cut only next to a `,` or `:` of the JSON syntax (outside any string: recording-line.ts).
   * True while no secret holds `,` or `:`: then no form of a secret (raw, percent- or JSON-escaped,
   * base64) holds either character raw, so no secret found in the line spans a cut; and the credential
   * fields found by name (`"token":"…"`, `token=…`) lie within one JSON string or one key and its value,
   * which the cuts never split.
   */
  scrubsLineInParts(): boolean {
    return !this.#separatorInSecret
  }

  /**
   * Redacts the configured paths of a parsed JSON body; `representation` selects the personal paths.
   * Returns the new value and the JSON pointers that were replaced (none: the same value back).
   */
  redactBody(body: unknown, representation?: string): { value: unknown; pointers: string[] } {
    const paths = [...this.#bodyPaths]
    if (this.#personal && representation !== undefined)
      paths.push(...(PERSONAL_PATHS[representation] ?? []).map(parseJsonPath))
    const pointers: string[] = []
    let value = body
    for (const path of paths) value = redactAt(value, path, '', pointers)
    return { value, pointers: [...new Set(pointers)].sort() }
  }

  #remember(secret: string, replacement: string): void {
    // A secret too short to search for is still redacted where it stands (by header or field name).
    if (secret.length < MIN_SCRUBBED_SECRET_LENGTH || this.#secrets.has(secret)) return
    this.#secrets.set(secret, replacement)
    this.#scrub = createScrub(this.#secrets, '[redacted]')
    this.#scrubbed = scrubMemo()
    this.#generation += 1
    this.#separatorInSecret ||= SEPARATOR.test(secret)
  }

  #redactCookieHeader(value: string, isSetCookie: boolean): string {
    if (isSetCookie) {
      const [pair = '', ...attributes] = value.split(';')
      const eq = pair.indexOf('=')
      const name = eq === -1 ? '' : pair.slice(0, eq).trim()
      const cookieValue = eq === -1 ? pair.trim() : pair.slice(eq + 1).trim()
      return [`${name}=[redacted ${this.idOf(cookieValue, 'ck')}]`, ...attributes.map((a) => this.scrub(a))].join(';')
    }
    return cookiePairs(value, false)
      .map(([name, cookieValue]) => `${name}=[redacted ${this.idOf(cookieValue, 'ck')}]`)
      .join('; ')
  }
}

/** `Bearer abc` → scheme `Bearer`, credentials `abc`; a value with no scheme is all credentials. */
function splitCredentials(value: string): { scheme?: string; credentials: string } {
  const trimmed = value.trim()
  const match = /^([A-Za-z][A-Za-z0-9-]{0,19})\s+(\S.*)$/.exec(trimmed)
  if (match === null) return { credentials: trimmed }
  return { scheme: match[1], credentials: (match[2] as string).trim() }
}

/** The password half of Basic credentials (`base64(user:password)`), or undefined when they are not of that form. */
function basicPassword(credentials: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+=*$/.test(credentials)) return undefined
  const decoded = Buffer.from(credentials, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon === -1 ? undefined : decoded.slice(colon + 1)
}

/** Name/value pairs of a Cookie header, or the first pair of a Set-Cookie header. */
export function cookiePairs(value: string, isSetCookie: boolean): [string, string][] {
  const pieces = isSetCookie ? [value.split(';')[0] ?? ''] : value.split(';')
  const pairs: [string, string][] = []
  for (const piece of pieces) {
    const eq = piece.indexOf('=')
    if (eq === -1) {
      if (piece.trim() !== '') pairs.push(['', piece.trim()])
      continue
    }
    pairs.push([piece.slice(0, eq).trim(), piece.slice(eq + 1).trim()])
  }
  return pairs
}

function redactAt(value: unknown, path: readonly JsonPathSegment[], pointer: string, hits: string[]): unknown {
  const [head, ...rest] = path
  if (head === undefined) {
    hits.push(pointer)
    return placeholderFor(value)
  }
  if (Array.isArray(value)) {
    if (head === ANY) return value.map((item, i) => redactAt(item, rest, `${pointer}/${i}`, hits))
    const index = Number(head)
    if (!Number.isInteger(index) || index < 0 || index >= value.length) return value
    return value.map((item, i) => (i === index ? redactAt(item, rest, `${pointer}/${i}`, hits) : item))
  }
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const keys = head === ANY ? Object.keys(record) : Object.hasOwn(record, head) ? [head] : []
  if (keys.length === 0) return value
  const copy: Record<string, unknown> = { ...record }
  for (const key of keys) copy[key] = redactAt(record[key], rest, `${pointer}/${escapePointerSegment(key)}`, hits)
  return copy
}

function placeholderFor(value: unknown): unknown {
  if (typeof value === 'number') return 0
  if (typeof value === 'boolean') return false
  return '[redacted]'
}
