// How deep a YAML (or JSON) text nests, found in one pass over the text before anything parses it
//. The quick reader, the `yaml` composer, the schema validator and the loader all
// walk a document by recursion; a file nested some thousands of levels deep (`[[[[…]]]]`, `- - - - x`,
// `{"a": {"a": …}}`, or block maps indented one more space a line) ran the stack out and ended the
// run with E_INTERNAL. So the depth is measured on the text, without recursion, and a file that nests
// deeper than the limit is a load error at the place where it does.
//
// What counts as a level: each open `[` or `{`, each indentation a block line adds to the lines it is
// inside, and each compact `- `, `? ` or `: ` at the start of a line (`- - x` is two sequences and
// the scalar in them). Quoted scalars, comments and block scalars (`|`, `>`) are skipped, so a bracket
// inside a text is not a level. The count is the true depth for the shapes scenarios use; where it is
// off (a sequence at its key's own indentation counts as the key's level), it is off by one a level
// at most, and the limit leaves every reader room for that.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  CR,
  DASH,
  DOUBLE_QUOTE,
  GREATER,
  HASH,
  NEWLINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  PIPE,
  QUESTION,
  SINGLE_QUOTE,
  SPACE,
  TAB,
} from './char-codes.js'

/**
 * No scenario comes near this (the built-in ones nest at most a dozen levels, a request body a few
 * more), and every reader handles well past it: the `yaml` composer's stack ran out at about 900 levels
 * of block sequences, the loader's at about 2,700 of flow collections. (serde_json stops at 128.)
 */
export const MAX_NESTING_DEPTH = 256

/** The offset at which `text` first nests deeper than `limit` levels, or undefined when it never does. */
export function findTooDeepNesting(text: string, limit = MAX_NESTING_DEPTH): number | undefined {
  /** The columns of the block levels the current line is inside, from the outermost. */
  const columns: number[] = []
  let flowDepth = 0
  /** Inside a quoted scalar that goes on over lines: its quote character. */
  let quote = 0
  /** Inside a block scalar: the column its lines must pass. */
  let scalarColumn: number | undefined
  let at = 0
  while (at < text.length) {
    let lineEnd = text.indexOf('\n', at)
    if (lineEnd < 0) lineEnd = text.length
    let column = 0
    while (text.charCodeAt(at + column) === SPACE) column++
    const contentStart = at + column
    const blank = contentStart >= lineEnd || isLineBreak(text.charCodeAt(contentStart))
    if (scalarColumn !== undefined) {
      if (blank || column > scalarColumn) {
        at = lineEnd + 1
        continue
      }
      scalarColumn = undefined
    }
    let pos = at
    if (quote !== 0) {
      pos = endOfQuoted(text, at, lineEnd, quote)
      if (pos < 0) {
        at = lineEnd + 1
        continue
      }
      quote = 0
    } else if (flowDepth === 0) {
      if (blank || text.charCodeAt(contentStart) === HASH) {
        at = lineEnd + 1
        continue
      }
      // A block line is inside every less indented line before it, and takes the place of one at its
      // own column. Each compact `- ` on it opens a level at its column, its content one at the next.
      while (columns.length > 0 && columns[columns.length - 1]! >= column) columns.pop()
      pos = contentStart
      for (;;) {
        columns.push(pos - at)
        if (columns.length > limit) return pos
        if (!isCompactIndicator(text, pos)) break
        pos += 2
        while (text.charCodeAt(pos) === SPACE) pos++
      }
    }
    // The rest of the line: flow brackets, quoted scalars, a comment, a block scalar's header.
    for (; pos < lineEnd; pos++) {
      const code = text.charCodeAt(pos)
      // In block context a quoted scalar, a flow collection or a block scalar starts a value: at the
      // line's first content, or after `: `, `- `, `? `. Elsewhere it is part of a plain text
      // (`title: see [RFC 9110`, `notes: say "hi`), and must not open anything.
      const startsToken =
        flowDepth > 0 ? pos === at || isTokenBoundary(text.charCodeAt(pos - 1)) : startsBlockValue(text, pos, at)
      if (code === HASH && (pos === at || isSpace(text.charCodeAt(pos - 1)))) break
      if ((code === DOUBLE_QUOTE || code === SINGLE_QUOTE) && startsToken) {
        const end = endOfQuoted(text, pos + 1, lineEnd, code)
        if (end < 0) {
          quote = code
          break
        }
        pos = end - 1
      } else if ((code === OPEN_BRACKET || code === OPEN_BRACE) && (flowDepth > 0 || startsToken)) {
        flowDepth++
        if (columns.length + flowDepth > limit) return pos
      } else if ((code === CLOSE_BRACKET || code === CLOSE_BRACE) && flowDepth > 0) {
        flowDepth--
      } else if ((code === PIPE || code === GREATER) && flowDepth === 0 && startsToken) {
        scalarColumn = column
        break
      }
    }
    at = lineEnd + 1
  }
  return undefined
}

/** `- `, `? ` or `: ` (or the same at the end of the line) at `pos`. */
function isCompactIndicator(text: string, pos: number): boolean {
  const code = text.charCodeAt(pos)
  if (code !== DASH && code !== QUESTION && code !== COLON) return false
  const next = text.charCodeAt(pos + 1)
  return next === SPACE || next === TAB
}

/** In block context: `pos` is the first content of its line, or follows `:`, `-` or `?` and spaces. */
function startsBlockValue(text: string, pos: number, lineStart: number): boolean {
  let before = pos - 1
  while (before >= lineStart && isSpace(text.charCodeAt(before))) before--
  if (before < lineStart) return true
  if (before === pos - 1) return false
  const code = text.charCodeAt(before)
  return code === COLON || code === DASH || code === QUESTION
}

function isSpace(code: number): boolean {
  return code === SPACE || code === TAB
}

function isTokenBoundary(code: number): boolean {
  return isSpace(code) || code === OPEN_BRACKET || code === OPEN_BRACE || code === COMMA || code === COLON
}

function isLineBreak(code: number): boolean {
  return code === NEWLINE || code === CR
}

/** The offset just past the quote that closes a scalar opened before `from`, or -1 when the line ends first. */
function endOfQuoted(text: string, from: number, lineEnd: number, quote: number): number {
  for (let pos = from; pos < lineEnd; pos++) {
    const code = text.charCodeAt(pos)
    if (quote === DOUBLE_QUOTE && code === BACKSLASH) pos++
    else if (code === quote) {
      if (quote === SINGLE_QUOTE && text.charCodeAt(pos + 1) === SINGLE_QUOTE) pos++
      else return pos + 1
    }
  }
  return -1
}

/**
 * The offset at which a JSON text first nests deeper than `limit` levels, or undefined when it never
 * does (or is no JSON: brackets in strings are skipped, nothing else is judged). One pass, no recursion.
 */
export function findTooDeepJson(text: string, limit = MAX_NESTING_DEPTH): number | undefined {
  let depth = 0
  for (let pos = 0; pos < text.length; pos++) {
    const code = text.charCodeAt(pos)
    if (code === DOUBLE_QUOTE) {
      pos++
      while (pos < text.length) {
        const inner = text.charCodeAt(pos)
        if (inner === BACKSLASH) pos += 2
        else if (inner === DOUBLE_QUOTE) break
        else pos++
      }
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth++
      if (depth > limit) return pos
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--
    }
  }
  return undefined
}

/** True when a parsed JSON value nests deeper than `limit` levels. Walks with a list, not by recursion. */
export function isNestedDeeperThan(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  const pending: { readonly value: object; readonly depth: number }[] = []
  if (value !== null && typeof value === 'object') pending.push({ value, depth: 1 })
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > limit) return true
    for (const child of Object.values(next.value) as unknown[]) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: next.depth + 1 })
    }
  }
  return false
}
