/**
 * `--grep`: which scenarios to select by id or title. Deliberately not a regular expression: a
 * backtracking pattern such as `^(\w|.)*Z$` can take exponential time and would hang the run (issue
 * 11). What it takes instead matches in linear time: text, case-insensitive; `|` between
 * alternatives; `^` and `$` anchor an alternative to the start or end; `\` makes the next character
 * plain text.
 */
export interface GrepFilter {
  /** The pattern as the user wrote it, for messages. */
  readonly source: string
  test(text: string): boolean
}

interface Alternative {
  readonly text: string
  readonly atStart: boolean
  readonly atEnd: boolean
}

/** Characters that would make the pattern a regular expression; refused so nobody expects one. */
const REGEX_ONLY = new Set(['.', '*', '+', '?', '(', ')', '[', ']', '{', '}'])

/** Parses a --grep pattern; throws an Error naming the problem when it uses regular-expression syntax. */
export function parseGrep(pattern: string): GrepFilter {
  const alternatives: Alternative[] = []
  let text = ''
  let atStart = false
  let atEnd = false
  const close = (): void => {
    alternatives.push({ text: text.toLowerCase(), atStart, atEnd })
    text = ''
    atStart = false
    atEnd = false
  }
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    if (atEnd && char !== '|') throw new Error(`"$" must end an alternative (at ${i + 1})`)
    if (char === '\\') {
      if (i + 1 >= pattern.length) throw new Error('a "\\" at the end escapes nothing')
      text += pattern[++i]
    } else if (char === '|') close()
    else if (char === '^' && text === '' && !atStart) atStart = true
    else if (char === '$') atEnd = true
    else if (REGEX_ONLY.has(char))
      throw new Error(
        `"${char}" (at ${i + 1}) is regular-expression syntax; --grep takes text, | between alternatives, ^ and $ as anchors (write \\${char} for the character itself)`,
      )
    else text += char
  }
  close()
  return {
    source: pattern,
    test(candidate) {
      const lower = candidate.toLowerCase()
      return alternatives.some(({ text: needle, atStart: start, atEnd: end }) => {
        if (start && end) return lower === needle
        if (start) return lower.startsWith(needle)
        if (end) return lower.endsWith(needle)
        return lower.includes(needle)
      })
    },
  }
}
