/**
 * A recording line in three parts, so that an exchange made again costs only what differs.
 *
 *   {"_endpoint":…,"_findings":[…],"_id":  12  ,"_tokenId":…,"request":{…},"response":{…}  ,"startedDateTime":…,"time":…,"timings":{…}}
 *   └────────────── head ─────────────────┘ id └──────────────── body ───────────────────┘ └──────────────── clock ─────────────────────┘
 *
 * The head and the body depend only on what the exchange was (and on the secrets known); the id and
 * the clock change with every exchange. Joined, the parts are exactly `stableStringify(entry)`: the
 * entry's keys are in sorted order (har-entry.ts), the members are cut at the `_id` and at
 * `startedDateTime`, and each member is written as stable-json.ts writes it.
 *
 * Every line is scrubbed before it is written (the redactor's final by-value check). Each part is
 * scrubbed on its own when the redactor allows it (`SecretScrubber.scrubsLineInParts`: every cut is next
 * to a `,` or `:` of the JSON syntax), so the head and the body of an exchange seen before are taken as
 * they were scrubbed then (process-exchange.ts); otherwise the joined line is scrubbed whole.
 */
import type { ExchangeEntry, HarResponse } from '../../src/model/exchange.js'
import { TextMemo } from '../analyze/text-memo.js'
import { clockMembers, type ClockInput } from '../reading/har-entry.js'
import type { SecretScrubber } from './redaction.js'
import { stableStringify } from './stable-json.js'

/** The parts of a line that depend only on the exchange. */
export interface LineParts {
  /** `{` and the members before `_id`, then `"_id":`. */
  readonly head: string
  /**
   * The members between `_id` and `startedDateTime`, each after a `,`, in pieces that are written one
   * after the other: a long response text stays the one string kept for it (`escapedTexts`), never
   * copied into a line of its own.
   */
  readonly body: readonly string[]
  /** Whether head and body are scrubbed already; if not, `joinLine` scrubs the line whole. */
  readonly scrubbed: boolean
}

/** The first member of the clock part: it and the members after it change from exchange to exchange. */
const FIRST_CLOCK_MEMBER = 'startedDateTime'
const CLOCK_MEMBERS: ReadonlySet<string> = new Set([FIRST_CLOCK_MEMBER, 'time', 'timings'])

/**
 * The member whose text comes again on different exchanges: a resource read again answers the same
 * bytes, while each request carries headers of its own. When the line is scrubbed in parts it is
 * scrubbed on its own, through the redactor's memo (`scrub`, the same scrubber): the cuts around it
 * are next to a `,` of the JSON syntax.
 */
const REPEATED_MEMBER = 'response'

/**
 * Response texts at least this long are escaped once and kept (`escapedTexts`); a shorter one costs
 * less to escape again than to look up.
 */
const KEPT_TEXT_CHARS = 1024
/** A response's text as its member of the line writes it: escaped, and the `}` closing `content` after it. */
const escapedTexts = new TextMemo<string>()
/** Stands for the text in the response written without it; no header, cookie or status text holds a NUL. */
const TEXT_MARK = '\u0000'
/** The text's place in that writing: `text` is the last member of `content` (its keys are sorted). */
const MARKED_TEXT = `"text":${JSON.stringify(TEXT_MARK)}}`

/**
 * `,"response":…` scrubbed, cut in three: what comes before the text, the text, and what follows.
 * The text of a resource read again is the very string of the first reading (the redactor's memo
 * gives it back), so it is escaped and scrubbed once, and looked up by a hash V8 keeps with it;
 * the rest (headers and status) is small. The cuts are after the `:` of `"text":` and before the
 * `,` that follows `content` (`scrubsLineInParts`).
 */
function repeatedMember(response: HarResponse, redactor: SecretScrubber): string[] {
  const text = response.content.text
  if (text === undefined || text.length < KEPT_TEXT_CHARS)
    return [redactor.scrub(`,"response":${stableStringify(response)}`)]
  const marked = `,"response":${stableStringify({ ...response, content: { ...response.content, text: TEXT_MARK } })}`
  const at = marked.indexOf(MARKED_TEXT)
  // Not where it is looked for (a member after `text`, the mark twice): written as one piece.
  if (at === -1 || marked.indexOf(MARKED_TEXT, at + 1) !== -1)
    return [redactor.scrub(`,"response":${stableStringify(response)}`)]
  const before = marked.slice(0, at + '"text":'.length)
  const after = marked.slice(at + MARKED_TEXT.length)
  const escaped = escapedTexts.get('', text, () => `${JSON.stringify(text)}}`)
  return [redactor.scrubLine(before), redactor.scrub(escaped), redactor.scrubLine(after)]
}

/** The parts of an entry's line, scrubbed each on its own when the redactor allows it. */
export function lineParts(entry: ExchangeEntry, redactor: SecretScrubber): LineParts {
  let head = '{'
  let body = ''
  let afterId = false
  const inParts = redactor.scrubsLineInParts()
  /** The body's members before the repeated one, and it, scrubbed: empty unless the line is scrubbed in parts. */
  const bodyScrubbed: string[] = []
  for (const key of Object.keys(entry).sort()) {
    if (key === '_id') {
      afterId = true
      continue
    }
    if (key >= FIRST_CLOCK_MEMBER) {
      // `joinLine` writes these from the clock: a member it does not know of would be lost.
      if (!CLOCK_MEMBERS.has(key)) throw new Error(`recording-line.ts does not know where the entry member ${key} goes`)
      continue
    }
    const value = (entry as unknown as Record<string, unknown>)[key]
    if (value === undefined) continue
    const member = key === REPEATED_MEMBER && inParts ? '' : `${JSON.stringify(key)}:${stableStringify(value)}`
    if (!afterId) head += `${member},`
    else if (key === REPEATED_MEMBER && inParts) {
      bodyScrubbed.push(redactor.scrubLine(body), ...repeatedMember(value as HarResponse, redactor))
      body = ''
    } else body += `,${member}`
  }
  head += '"_id":'
  if (!inParts) return { head, body: [body], scrubbed: false }
  bodyScrubbed.push(redactor.scrubLine(body))
  return { head: redactor.scrubLine(head), body: bodyScrubbed, scrubbed: true }
}

/** The whole line of an exchange, scrubbed, in pieces that joined are the line: its parts, and its id and clock. */
export function joinLine(parts: LineParts, id: number, clock: ClockInput, redactor: SecretScrubber): readonly string[] {
  const { startedDateTime, time, timings } = clockMembers(clock)
  const tail = `,"startedDateTime":${JSON.stringify(startedDateTime)},"time":${JSON.stringify(time)},"timings":${stableStringify(timings)}}`
  if (!parts.scrubbed) return [redactor.scrubLine(`${parts.head}${JSON.stringify(id)}${parts.body.join('')}${tail}`)]
  return [parts.head, redactor.scrubLine(JSON.stringify(id)), ...parts.body, redactor.scrubLine(tail)]
}
