/**
 * The recorded exchanges of one or more recording files, for the tools that read recordings (`analyze`,
 * `har`, `scaffold`, `mock`). A line that is not JSON, is cut short (a crash, a full disk), or is JSON
 * without the shape the tools rely on (`{"request":null,"response":null}`) is skipped and told with its
 * `file:line`: a hand-edited or damaged recording never stops a tool with E_INTERNAL.
 *
 * A line is read within two bounds: at most `maxLineBytes()` bytes (readline held a
 * whole line in memory, several times over), and nested at most MAX_NESTING_DEPTH levels, in the
 * line and, for `scaffold`, in the JSON bodies it holds (100,000 levels ran the stack out).
 * A line past either bound stops the tool with exit 2 and says which line, rather than being skipped
 * like a damaged one: it is a whole exchange the tools cannot judge, and a summary, HAR or scaffold
 * without it would pass for the whole recording.
 */
import { createReadStream } from 'node:fs'
import { ConformanceError, type Diagnostic, type ProxyErrorCode } from '../../src/model/diagnostic.js'
import type { ExchangeEntry } from '../../src/model/exchange.js'
import { findTooDeepJson, isNestedDeeperThan, MAX_NESTING_DEPTH } from '../../src/load/nesting-depth.js'
import { isRecord } from '../../src/shared/is-record.js'

export interface SkippedLine {
  readonly file: string
  readonly line: number
  readonly problem: string
}

export interface RecordedExchange {
  readonly file: string
  readonly line: number
  readonly entry: ExchangeEntry
}

/**
 * The longest recording line the tools read: far above what the proxy writes (two bodies of at most
 * --max-body-bytes, 1 MiB by default, each at most 6 times longer once escaped in JSON, plus headers).
 */
const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024
/** Raises (or lowers) DEFAULT_MAX_LINE_BYTES, for a recording made with a larger --max-body-bytes. */
export const MAX_LINE_BYTES_ENV = 'FITCONFORM_MAX_LINE_BYTES'

/** The line bound in force: FITCONFORM_MAX_LINE_BYTES when set to a whole number of bytes, else the default. */
function maxLineBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[MAX_LINE_BYTES_ENV]
  if (value === undefined || value === '') return DEFAULT_MAX_LINE_BYTES
  if (!/^[1-9][0-9]{0,15}$/.test(value))
    throw refusal(
      'E_MAX_LINE_BYTES',
      `${MAX_LINE_BYTES_ENV}=${value} is not a whole number of bytes`,
      `unset it, or set it to the longest line to read, e.g. ${DEFAULT_MAX_LINE_BYTES}`,
    )
  return Number(value)
}

export interface ReadOptions {
  /**
   * Also refuse an entry whose JSON request or response body nests too deep: for a tool that parses
   * the bodies and walks them by recursion (`scaffold`). Costs a pass over each body's text.
   */
  readonly bodies?: boolean
}

/**
 * Streams the well-formed entries of the files in order; each other line goes to `onSkipped`. A line past the bounds
 * throws a load-kind ConformanceError (exit 2).
 */
export async function* readExchanges(
  files: readonly string[],
  onSkipped: (skipped: SkippedLine) => void,
  options: ReadOptions = {},
): AsyncGenerator<RecordedExchange> {
  const limit = maxLineBytes()
  for (const file of files) {
    for await (const { line, text } of recordingLines(file, limit)) {
      if (text.trim() === '') continue
      let entry: unknown
      try {
        entry = JSON.parse(text)
      } catch (err) {
        onSkipped({ file, line, problem: `not JSON: ${(err as Error).message}` })
        continue
      }
      // JSON.parse itself does not recurse; what the tools do with the entry (JSON.stringify) does.
      if (isNestedDeeperThan(entry)) throw tooDeep(file, line, 'in the line itself')
      const problem = problemOfEntry(entry)
      if (problem !== undefined) {
        onSkipped({ file, line, problem })
        continue
      }
      const body = options.bodies === true ? tooDeepBody(entry as ExchangeEntry) : undefined
      if (body !== undefined) throw tooDeep(file, line, `in its ${body} body`)
      yield { file, line, entry: entry as ExchangeEntry }
    }
  }
}

/** The lines of a file, numbered from 1, read in chunks: no line longer than `limit` bytes is ever held. */
async function* recordingLines(file: string, limit: number): AsyncGenerator<{ line: number; text: string }> {
  let parts: Buffer[] = []
  let length = 0
  let line = 1
  const take = (chunk: Buffer, start: number, end: number): void => {
    if (length + end - start > limit) throw tooLong(file, line, limit)
    if (end > start) parts.push(chunk.subarray(start, end))
    length += end - start
  }
  const finish = (): string => {
    let text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, length)).toString('utf8')
    if (text.endsWith('\r')) text = text.slice(0, -1)
    parts = []
    length = 0
    return text
  }
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      take(chunk, start, newline)
      yield { line, text: finish() }
      line += 1
      start = newline + 1
    }
    take(chunk, start, chunk.length)
  }
  if (length > 0) yield { line, text: finish() }
}

/** Which body of the entry nests too deep to judge: `request` or `response`, or undefined. */
function tooDeepBody(entry: ExchangeEntry): string | undefined {
  const { postData } = entry.request
  if (postData !== undefined && postData._encoding !== 'base64' && isTooDeepJson(postData.text)) return 'request'
  const { content } = entry.response
  if (content.text !== undefined && content.encoding !== 'base64' && isTooDeepJson(content.text)) return 'response'
  return undefined
}

/** Only a text that starts like JSON is measured: brackets in other text (HTML, CSS) are no levels. */
function isTooDeepJson(text: string): boolean {
  const first = text.trimStart().charCodeAt(0)
  return (first === 0x5b || first === 0x7b) && findTooDeepJson(text) !== undefined
}

function tooDeep(file: string, line: number, where: string): ConformanceError {
  return refusal(
    'E_RECORDING_TOO_DEEP',
    `line ${line} of ${file} is nested deeper than ${MAX_NESTING_DEPTH} levels (${where}); fitconform does not judge an exchange that deep`,
    'remove the line (or the recording) to read the rest',
  )
}

function tooLong(file: string, line: number, limit: number): ConformanceError {
  return refusal(
    'E_RECORDING_LINE_TOO_LONG',
    `line ${line} of ${file} is longer than ${limit} bytes, the longest recording line fitconform reads`,
    `with its default --max-body-bytes the proxy writes no line that long; for a recording made with a larger one, raise the limit with ${MAX_LINE_BYTES_ENV}=<bytes>`,
  )
}

function refusal(code: ProxyErrorCode, message: string, hint: string): ConformanceError {
  return new ConformanceError({ code, kind: 'load', message, hint })
}

/** Warnings printed one by one up to this many; past it, only counted (a damaged file can have thousands). */
const WARNINGS_PRINTED = 20

/** Prints the first skipped lines as `warning: file:line: problem` and counts the rest, for `summary()`. */
export function createSkipWarnings(print: (line: string) => void): {
  readonly onSkipped: (skipped: SkippedLine) => void
  summary(): string | undefined
} {
  let count = 0
  return {
    onSkipped: (skipped) => {
      count += 1
      if (count <= WARNINGS_PRINTED) print(`warning: ${skipped.file}:${skipped.line}: line skipped: ${skipped.problem}`)
    },
    summary: () =>
      count === 0
        ? undefined
        : `warning: ${count} malformed recording line(s) skipped${count > WARNINGS_PRINTED ? ` (the first ${WARNINGS_PRINTED} listed)` : ''}`,
  }
}

/**
 * Why a parsed line cannot be used as a recorded exchange, or undefined when it can. Checks what the
 * tools read, no more: a recording from an older or newer fitconform with extra fields still reads.
 */
export function problemOfEntry(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not a recorded exchange (not a JSON object)'
  const { request, response } = value
  if (!isRecord(request)) return 'not a recorded exchange (no request)'
  if (!isRecord(response)) return 'not a recorded exchange (no response)'
  if (typeof request.method !== 'string' || request.method === '') return 'request.method is not a text'
  if (typeof request.url !== 'string' || !URL.canParse(request.url)) return 'request.url is not an absolute URL'
  if (!isHeaderList(request.headers)) return 'request.headers is not a list of { name, value } texts'
  if (request.postData !== undefined && (!isRecord(request.postData) || typeof request.postData.text !== 'string'))
    return 'request.postData has no text'
  if (!Number.isInteger(response.status)) return 'response.status is not a number'
  if (!isHeaderList(response.headers)) return 'response.headers is not a list of { name, value } texts'
  if (!isRecord(response.content) || (response.content.text !== undefined && typeof response.content.text !== 'string'))
    return 'response.content is not an object with a text'
  if (typeof value._id !== 'number') return '_id is not a number'
  if (typeof value.startedDateTime !== 'string') return 'startedDateTime is not a text'
  if (
    value._findings !== undefined &&
    !(
      Array.isArray(value._findings) &&
      value._findings.every((f) => isRecord(f) && FINDING_KINDS.has(f.kind as string) && typeof f.message === 'string')
    )
  ) {
    return '_findings is not a list of { kind, message }'
  }
  if (
    value._endpoint !== undefined &&
    (!isRecord(value._endpoint) ||
      typeof value._endpoint.method !== 'string' ||
      typeof value._endpoint.path !== 'string')
  )
    return '_endpoint is not { method, path }'
  if (value._tokenId !== undefined && typeof value._tokenId !== 'string') return '_tokenId is not a text'
  if (value._error !== undefined && (!isRecord(value._error) || typeof value._error.code !== 'string'))
    return '_error has no code'
  return undefined
}

const FINDING_KINDS = new Set(['violation', 'irregularity', 'note', 'unknown-endpoint'])

function isHeaderList(value: unknown): boolean {
  return (
    Array.isArray(value) && value.every((h) => isRecord(h) && typeof h.name === 'string' && typeof h.value === 'string')
  )
}

/** The Diagnostic of a recording line past its bounds (readExchanges' refusal), or undefined for any other error. */
export function refusalOf(error: unknown): Diagnostic | undefined {
  return error instanceof ConformanceError && error.diagnostic.kind === 'load' ? error.diagnostic : undefined
}
