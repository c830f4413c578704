// The quick way through a scenario file. The `yaml` package's composer (parseDocument +
// toJS) builds a node per value and then copies it into plain data; even its CST parser is slow on a
// large file (docs/benchmarks.md, the 500-test workload). Scenario files use a small part of YAML, so this reads that part
// straight from the text into plain data, noting where each value starts, without loading `yaml` at
// all. The part: block maps and sequences indented with spaces (a sequence may sit at its key's
// indentation, a map may start on a `- ` line), one-line flow maps and sequences, one-line plain,
// single- and double-quoted scalars, `|` and `>` block scalars with clip or strip chomping, comments.
// Anything else returns undefined (anchors, aliases, tags, directives, document markers, tabs, CR,
// explicit, multi-line or non-string keys, duplicate keys, empty values, multi-line plain or quoted
// scalars, flow collections over several lines, unusual escapes, every syntax error) and the caller
// takes the full composer, which also words every error: the data is the same either way, only sooner.
// test/unit/load/fast-yaml.test.ts holds every built-in suite file, and generated documents, to that.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  DASH,
  DOUBLE_QUOTE,
  HASH,
  NEWLINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  SINGLE_QUOTE,
  SPACE,
} from './char-codes.js'

/** Where a collection's values start: by key for a map, by index for a sequence. */
type ValueOffsets = Map<string, number> | number[]

export interface FastYaml {
  readonly data: unknown
  /**
   * Where the value at `path` starts; a path that is not there answers its nearest ancestor that is,
   * as the composer's document is read (yaml-source.ts). Undefined for an empty document.
   */
  readonly valueOffset: (path: readonly (string | number)[]) => number | undefined
}

class Unsupported extends Error {}

/** Thrown for anything outside the subset; the caller then takes the composer. */
function unsupported(): never {
  throw new Unsupported()
}

// Characters whose meaning YAML (or the composer) judges in ways this reader does not follow:
// control characters, CR, tab, NEL, the Unicode line and paragraph separators, a byte-order mark.
// eslint-disable-next-line no-control-regex
const OUTSIDE_SUBSET = /[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]|^(?:---|\.\.\.)(?:[ \n]|$)/m

export function parseFastYaml(text: string): FastYaml | undefined {
  if (OUTSIDE_SUBSET.test(text)) return undefined
  const reader = new Reader(text)
  try {
    const root = reader.document()
    const { offsets } = reader
    return {
      data: root ? root.value : null,
      valueOffset: (path) => (root ? valueOffset(root, offsets, path) : undefined),
    }
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
}

function valueOffset(
  root: Located,
  offsets: WeakMap<object, ValueOffsets>,
  path: readonly (string | number)[],
): number {
  let value = root.value
  let offset = root.offset
  for (const step of path) {
    const places = value !== null && typeof value === 'object' ? offsets.get(value) : undefined
    const next =
      places instanceof Map
        ? typeof step === 'string'
          ? places.get(step)
          : undefined
        : typeof step === 'number'
          ? places?.[step]
          : undefined
    if (next === undefined) return offset
    value = (value as Record<string | number, unknown>)[step]
    offset = next
  }
  return offset
}

/** A plain scalar may not start with one of these: `-?:,[]{}#&*!|>'"%@` and the backquote. */
const INDICATORS = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((char) => char.charCodeAt(0)))
const FLOW_INDICATORS = new Set([COMMA, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE])

/** The composer refuses implicit keys longer than 1024 characters (KEY_OVER_1024_CHARS); leave long ones to it. */
const LONGEST_KEY = 1000

interface Located {
  readonly value: unknown
  readonly offset: number
}

class Reader {
  readonly offsets = new WeakMap<object, ValueOffsets>()
  /** The reading position: always inside the current line. */
  private pos = 0

  constructor(private readonly text: string) {}

  document(): Located | undefined {
    const indent = this.nextContentLine()
    if (indent === undefined) return undefined
    if (indent !== 0) unsupported()
    const root = this.blockNode(-1)
    if (this.nextContentLine() !== undefined) unsupported() // something left over, less indented
    return root
  }

  /**
   * Moves `pos` to the first non-space character of the next line that holds more than spaces and a
   * comment (from the current position on) and answers its column, or undefined at the end of the text.
   */
  private nextContentLine(): number | undefined {
    const text = this.text
    for (;;) {
      const lineStart = this.pos
      let at = lineStart
      while (text.charCodeAt(at) === SPACE) at++
      if (at >= text.length) {
        this.pos = text.length
        return undefined
      }
      const code = text.charCodeAt(at)
      if (code !== NEWLINE && code !== HASH) {
        this.pos = at
        return at - this.lineStartOf(at)
      }
      const end = text.indexOf('\n', at)
      if (end < 0) {
        this.pos = text.length
        return undefined
      }
      this.pos = end + 1
    }
  }

  private lineStartOf(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1
  }

  /** A block node whose first line is at `pos`, inside a collection indented by `parentIndent`. */
  private blockNode(parentIndent: number): Located {
    const column = this.pos - this.lineStartOf(this.pos)
    if (column <= parentIndent) unsupported()
    if (this.isSequenceEntry()) return this.blockSequence(column)
    if (this.keyEnd() !== undefined) return this.blockMap(column)
    // A scalar or flow collection alone on its line (the root, or a value below its key).
    return this.inlineValue(parentIndent)
  }

  private isSequenceEntry(): boolean {
    const next = this.text.charCodeAt(this.pos + 1)
    return this.text.charCodeAt(this.pos) === DASH && (next === SPACE || next === NEWLINE || Number.isNaN(next))
  }

  private blockSequence(indent: number): Located {
    const list: unknown[] = []
    const where: number[] = []
    const offset = this.pos
    for (;;) {
      this.pos++ // the dash
      const item = this.afterIndicator(indent, false)
      list.push(item.value)
      where.push(item.offset)
      const next = this.nextContentLine()
      if (next === undefined || next < indent) break
      if (next > indent) unsupported()
      if (!this.isSequenceEntry()) break // the map this sequence is a value of goes on
    }
    this.offsets.set(list, where)
    return { value: list, offset }
  }

  private blockMap(indent: number): Located {
    const map: Record<string, unknown> = {}
    const where = new Map<string, number>()
    const offset = this.pos
    for (;;) {
      const keyEnd = this.keyEnd()
      if (keyEnd === undefined) unsupported()
      const key = this.key(keyEnd)
      this.pos = keyEnd + 1 // past the colon
      if (where.has(key)) unsupported()
      const value = this.afterIndicator(indent, true)
      // As the composer's toJS does: a key the object already has (`__proto__`, `constructor`) is defined, not assigned.
      if (key in map)
        Object.defineProperty(map, key, { value: value.value, writable: true, enumerable: true, configurable: true })
      else map[key] = value.value
      where.set(key, value.offset)
      const next = this.nextContentLine()
      if (next === undefined || next < indent) break
      if (next > indent) unsupported()
      if (this.isSequenceEntry()) unsupported() // `- ` where a key was expected
    }
    this.offsets.set(map, where)
    return { value: map, offset }
  }

  /**
   * The value after `- ` or `key:` of a collection indented by `indent`: on the same line, or on the
   * lines below (more indented, or, for a map's value, a sequence at the key's own indentation).
   */
  private afterIndicator(indent: number, isMapValue: boolean): Located {
    const text = this.text
    const lineEnd = this.lineEnd()
    let at = this.pos
    while (text.charCodeAt(at) === SPACE) at++
    if (at === lineEnd || (text.charCodeAt(at) === HASH && at > this.pos)) {
      this.pos = lineEnd
      const next = this.nextContentLine()
      if (next === undefined) unsupported() // an empty value: null, placed the composer's way
      if (next > indent) return this.blockNode(indent)
      if (next === indent && isMapValue && this.isSequenceEntry()) return this.blockSequence(indent)
      return unsupported()
    }
    if (at === this.pos) unsupported() // `key:value` or `-value` are not what they seem
    this.pos = at
    // A compact collection on a `- ` line: `- key: value` (`- - item` is left to the composer).
    // After `key:` either is an error.
    if (!isMapValue && this.keyEnd() !== undefined) return this.compactMap(indent)
    if (this.isSequenceEntry()) return unsupported()
    return this.inlineValue(indent)
  }

  private compactMap(parentIndent: number): Located {
    const column = this.pos - this.lineStartOf(this.pos)
    if (column <= parentIndent) unsupported()
    return this.blockMap(column)
  }

  /** A scalar, block scalar or one-line flow collection starting at `pos`; nothing but a comment may follow it. */
  private inlineValue(indent: number): Located {
    const offset = this.pos
    const code = this.text.charCodeAt(offset)
    let value: unknown
    if (code === 0x7c || code === 0x3e) return this.blockScalar(indent) // | and >
    if (code === OPEN_BRACKET || code === OPEN_BRACE) value = this.flowCollection()
    else if (code === DOUBLE_QUOTE) value = this.doubleQuoted()
    else if (code === SINGLE_QUOTE) value = this.singleQuoted()
    else value = resolvePlain(this.plain(false))
    this.endOfLine()
    // A more indented line after it would continue the scalar, or be an error: both the composer's.
    const next = this.peekNextLineIndent()
    if (next !== undefined && next > indent) unsupported()
    return { value, offset }
  }

  /** Column of the next line that is not empty, comments included, without moving. */
  private peekNextLineIndent(): number | undefined {
    const saved = this.pos
    const text = this.text
    let at = saved
    for (;;) {
      let column = 0
      while (text.charCodeAt(at) === SPACE) {
        at++
        column++
      }
      if (at >= text.length) return undefined
      if (text.charCodeAt(at) !== NEWLINE) return column
      at++
    }
  }

  /** Only spaces and a comment may remain on the line; moves past its newline. */
  private endOfLine(): void {
    const text = this.text
    let at = this.pos
    while (text.charCodeAt(at) === SPACE) at++
    if (at < text.length && text.charCodeAt(at) !== NEWLINE) {
      if (text.charCodeAt(at) !== HASH || at === this.pos) unsupported()
    }
    this.pos = this.lineEnd()
    if (this.pos < text.length) this.pos++
  }

  private lineEnd(): number {
    const end = this.text.indexOf('\n', this.pos)
    return end < 0 ? this.text.length : end
  }

  /** Where the colon of an implicit key `key: ` on this line starts, if the line holds one. */
  private keyEnd(): number | undefined {
    const text = this.text
    const code = text.charCodeAt(this.pos)
    let at: number
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
      at = text.indexOf(String.fromCharCode(code), this.pos + 1)
      // An escaped or doubled quote, or a key over several lines: leave it to the composer.
      if (at < 0 || text.charCodeAt(at + 1) === code || text.lastIndexOf('\n', at) >= this.pos) return undefined
      // In a double-quoted key, `\"` does not end it: a key with any escape is the composer's too.
      if (code === DOUBLE_QUOTE && text.lastIndexOf('\\', at) > this.pos) return undefined
      at++
      if (text.charCodeAt(at) !== COLON) return undefined
    } else {
      if (INDICATORS.has(code) || code === SPACE || code === NEWLINE || Number.isNaN(code)) return undefined
      at = this.pos
      for (;;) {
        at++
        const next = text.charCodeAt(at)
        if (Number.isNaN(next) || next === NEWLINE) return undefined
        if (next === HASH && text.charCodeAt(at - 1) === SPACE) return undefined
        if (next === COLON) {
          const after = text.charCodeAt(at + 1)
          if (after === SPACE || after === NEWLINE || Number.isNaN(after)) break
        }
      }
    }
    return at - this.pos > LONGEST_KEY ? unsupported() : at
  }

  /** The key from `pos` to its colon: a plain or quoted scalar that resolves to a string. */
  private key(colon: number): string {
    const code = this.text.charCodeAt(this.pos)
    if (code === DOUBLE_QUOTE) return this.doubleQuoted()
    if (code === SINGLE_QUOTE) return this.singleQuoted()
    const source = this.text.slice(this.pos, colon).trimEnd()
    const value = resolvePlain(source)
    if (typeof value !== 'string') unsupported() // `200: ok` or `true: x` keys: the composer's business
    return value
  }

  /** A one-line plain scalar from `pos`: in a flow collection it also stops at `,`, `]` and `}`. */
  private plain(inFlow: boolean): string {
    const text = this.text
    const start = this.pos
    const first = text.charCodeAt(start)
    if (INDICATORS.has(first)) {
      const second = text.charCodeAt(start + 1)
      // `-5` and `-x` are plain; `?x`, `:x` and the rest are left to the composer.
      if (
        first !== DASH ||
        second === SPACE ||
        Number.isNaN(second) ||
        second === NEWLINE ||
        FLOW_INDICATORS.has(second)
      )
        unsupported()
    }
    let at = start
    let end = start
    for (;;) {
      const code = text.charCodeAt(at)
      if (Number.isNaN(code) || code === NEWLINE) break
      if (code === HASH && at > start && text.charCodeAt(at - 1) === SPACE) break
      if (code === COLON) {
        const after = text.charCodeAt(at + 1)
        if (after === SPACE || after === NEWLINE || Number.isNaN(after) || (inFlow && FLOW_INDICATORS.has(after)))
          unsupported() // a nested `a: b: c` or a pair in [ ]
      }
      if (inFlow && FLOW_INDICATORS.has(code)) {
        if (code === OPEN_BRACKET || code === OPEN_BRACE) unsupported()
        break
      }
      if (code !== SPACE) end = at + 1
      at++
    }
    this.pos = end
    return text.slice(start, end)
  }

  private singleQuoted(): string {
    const text = this.text
    let value = ''
    let at = this.pos + 1
    for (;;) {
      const close = text.indexOf("'", at)
      const lineEnd = text.indexOf('\n', at)
      if (close < 0 || (lineEnd >= 0 && lineEnd < close)) unsupported() // over several lines: folding rules
      value += text.slice(at, close)
      if (text.charCodeAt(close + 1) !== SINGLE_QUOTE) {
        this.pos = close + 1
        return value
      }
      value += "'"
      at = close + 2
    }
  }

  private doubleQuoted(): string {
    const text = this.text
    let value = ''
    let at = this.pos + 1
    for (;;) {
      const code = text.charCodeAt(at)
      if (Number.isNaN(code) || code === NEWLINE) unsupported() // over several lines: folding rules
      if (code === DOUBLE_QUOTE) {
        this.pos = at + 1
        return value
      }
      if (code !== BACKSLASH) {
        let run = at + 1
        while (run < text.length && !QUOTED_RUN_END.has(text.charCodeAt(run))) run++
        value += text.slice(at, run)
        at = run
        continue
      }
      const escape = text[at + 1] ?? ''
      const simple = SIMPLE_ESCAPES[escape]
      if (simple !== undefined) {
        value += simple
        at += 2
      } else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) {
        const unit = Number.parseInt(text.slice(at + 2, at + 6), 16)
        if (unit >= 0xd800 && unit <= 0xdfff) unsupported() // surrogate halves: the composer's way
        value += String.fromCharCode(unit)
        at += 6
      } else {
        unsupported()
      }
    }
  }

  /** `[ ... ]` or `{ ... }` on one line, nested ones included. */
  private flowCollection(): unknown {
    const text = this.text
    const isMap = text.charCodeAt(this.pos) === OPEN_BRACE
    const close = isMap ? CLOSE_BRACE : CLOSE_BRACKET
    const map: Record<string, unknown> = {}
    const mapWhere = new Map<string, number>()
    const list: unknown[] = []
    const listWhere: number[] = []
    this.pos++
    let count = 0
    for (;;) {
      this.skipFlowSpace()
      const code = text.charCodeAt(this.pos)
      if (code === close) {
        this.pos++
        break
      }
      if (count > 0) {
        if (code !== COMMA) unsupported()
        this.pos++
        this.skipFlowSpace()
        if (text.charCodeAt(this.pos) === close) {
          this.pos++ // a trailing comma
          break
        }
      }
      if (isMap) {
        const key = this.flowScalarKey()
        this.skipFlowSpace()
        if (text.charCodeAt(this.pos) !== COLON) unsupported() // `{ a }`: a key without a value
        const after = text.charCodeAt(this.pos + 1)
        if (after !== SPACE) unsupported()
        this.pos++
        this.skipFlowSpace()
        const valueOffset = this.pos
        const value = this.flowValue()
        if (mapWhere.has(key)) unsupported()
        if (key in map) Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true })
        else map[key] = value
        mapWhere.set(key, valueOffset)
      } else {
        const valueOffset = this.pos
        list.push(this.flowValue())
        listWhere.push(valueOffset)
        this.skipFlowSpace()
        if (text.charCodeAt(this.pos) === COLON) unsupported() // a single-pair map inside [ ]
      }
      count++
    }
    if (isMap) {
      this.offsets.set(map, mapWhere)
      return map
    }
    this.offsets.set(list, listWhere)
    return list
  }

  private skipFlowSpace(): void {
    while (this.text.charCodeAt(this.pos) === SPACE) this.pos++
    const code = this.text.charCodeAt(this.pos)
    if (code === NEWLINE || Number.isNaN(code) || code === HASH) unsupported() // over several lines, or unclosed
  }

  private flowScalarKey(): string {
    const code = this.text.charCodeAt(this.pos)
    if (code === DOUBLE_QUOTE) return this.doubleQuoted()
    if (code === SINGLE_QUOTE) return this.singleQuoted()
    if (code === OPEN_BRACE || code === OPEN_BRACKET) unsupported()
    const source = this.flowPlainKey()
    const value = resolvePlain(source)
    if (typeof value !== 'string') unsupported()
    return value
  }

  /** A plain key inside `{ }`: up to its `: `. */
  private flowPlainKey(): string {
    const text = this.text
    const start = this.pos
    const first = text.charCodeAt(start)
    if (INDICATORS.has(first)) unsupported()
    let at = start
    let end = start
    for (;;) {
      const code = text.charCodeAt(at)
      if (Number.isNaN(code) || code === NEWLINE || FLOW_INDICATORS.has(code)) unsupported() // `{ a }` or `{ a, b }`
      if (code === HASH && text.charCodeAt(at - 1) === SPACE) unsupported()
      if (code === COLON) {
        const after = text.charCodeAt(at + 1)
        if (after === SPACE) break
        if (Number.isNaN(after) || after === NEWLINE || FLOW_INDICATORS.has(after)) unsupported()
      }
      if (code !== SPACE) end = at + 1
      at++
    }
    this.pos = end
    return text.slice(start, end)
  }

  private flowValue(): unknown {
    const code = this.text.charCodeAt(this.pos)
    if (code === OPEN_BRACKET || code === OPEN_BRACE) return this.flowCollection()
    if (code === DOUBLE_QUOTE) return this.doubleQuoted()
    if (code === SINGLE_QUOTE) return this.singleQuoted()
    if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET) unsupported() // an empty value
    return resolvePlain(this.plain(true))
  }

  /**
   * `|` or `>` with clip (default) or strip (`-`) chomping, its lines indented past `indent`. Folded
   * lines are joined with a space, an empty line keeps a line break; a more indented line in a
   * folded scalar, keep chomping, indentation indicators and leading empty lines go to the composer.
   */
  private blockScalar(indent: number): Located {
    const text = this.text
    const offset = this.pos
    const folded = text.charCodeAt(offset) === 0x3e
    let at = offset + 1
    let strip = false
    if (text.charCodeAt(at) === DASH) {
      strip = true
      at++
    }
    this.pos = at
    const header = text.charCodeAt(at)
    if (header !== SPACE && header !== NEWLINE && !Number.isNaN(header)) unsupported()
    this.endOfLine()
    // The lines of the scalar: its indentation is that of the first one.
    const lines: string[] = []
    let contentIndent = -1
    let lastLineBreak = false
    for (;;) {
      if (this.pos >= text.length) break
      const lineEnd = this.lineEnd()
      let column = 0
      while (text.charCodeAt(this.pos + column) === SPACE) column++
      const empty = this.pos + column === lineEnd
      if (empty) {
        if (contentIndent < 0) unsupported() // leading empty lines
        if (column > contentIndent) unsupported() // spaces past the indentation are content
        lines.push('')
      } else {
        if (contentIndent < 0) {
          if (column <= indent) unsupported() // an empty scalar
          contentIndent = column
        }
        if (column < contentIndent) break
        if (column > contentIndent && folded) unsupported()
        lines.push(text.slice(this.pos + contentIndent, lineEnd))
        lastLineBreak = lineEnd < text.length
      }
      this.pos = lineEnd < text.length ? lineEnd + 1 : lineEnd
    }
    if (contentIndent < 0) unsupported()
    // Trailing empty lines belong to chomping, not to the content (clip keeps one line break, strip none).
    let kept = lines.length
    while (kept > 0 && lines[kept - 1] === '') kept--
    if (!lastLineBreak) unsupported() // content that ends the file without a line break: chomping has nothing to keep
    const content = lines.slice(0, kept)
    let value = folded ? fold(content) : content.join('\n')
    if (!strip) value += '\n'
    return { value, offset }
  }
}

/** `>` folding of lines at one indentation: a line break between two lines is a space, each empty line one break. */
function fold(lines: readonly string[]): string {
  let value = ''
  let breaks = 0
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (line === '') {
      breaks++
      continue
    }
    if (index > 0) value += breaks > 0 ? '\n'.repeat(breaks) : ' '
    breaks = 0
    value += line
  }
  return value
}

const QUOTED_RUN_END = new Set([DOUBLE_QUOTE, BACKSLASH, NEWLINE])
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
  ' ': ' ',
}

/** A plain scalar by the YAML 1.2 core schema, in the composer's order of tags. */
function resolvePlain(source: string): unknown {
  if (source.length <= 5) {
    switch (source) {
      case '':
      case '~':
      case 'null':
      case 'Null':
      case 'NULL':
        return null
      case 'true':
      case 'True':
      case 'TRUE':
        return true
      case 'false':
      case 'False':
      case 'FALSE':
        return false
    }
  }
  // Most scalars are words or paths: only one that starts with a digit, a sign or a dot can be a number.
  const first = source.charCodeAt(0)
  if (!((first >= 0x30 && first <= 0x39) || first === 0x2b || first === DASH || first === 0x2e)) return source
  if (/^0o[0-7]+$/.test(source)) return Number.parseInt(source.slice(2), 8)
  if (/^[-+]?[0-9]+$/.test(source)) return Number.parseInt(source, 10)
  if (/^0x[0-9a-fA-F]+$/.test(source)) return Number.parseInt(source.slice(2), 16)
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(source)) {
    if (source.slice(-3).toLowerCase() === 'nan') return Number.NaN
    return source.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(source)) return Number.parseFloat(source)
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(source)) return Number.parseFloat(source)
  return source
}
