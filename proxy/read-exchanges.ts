/**
 * The recorded exchanges of one or more recording files, for the tools that read recordings (`analyze`,
 * `har`, `scaffold`, `mock`). A line that is not JSON, is cut short (a crash, a full disk), or is JSON
 * without the shape the tools rely on (`{"request":null,"response":null}`) is skipped and told with its
 * `file:line` (issue 11, item 5): a hand-edited or damaged recording never stops a tool with E_INTERNAL.
 */
import type { ExchangeEntry } from '../src/model/exchange.js'
import { readRecording } from './exchange-log.js'

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

/** Streams the well-formed entries of the files in order; each other line goes to `onSkipped`. */
export async function* readExchanges(files: readonly string[], onSkipped: (skipped: SkippedLine) => void): AsyncGenerator<RecordedExchange> {
  for (const file of files) {
    for await (const line of readRecording(file)) {
      const problem = 'problem' in line ? line.problem : problemOfEntry(line.entry)
      if (problem === undefined && 'entry' in line) yield { file, line: line.line, entry: line.entry }
      else onSkipped({ file, line: line.line, problem: problem ?? 'unreadable' })
    }
  }
}

/** Warnings printed one by one up to this many; past it, only counted (a damaged file can have thousands). */
const WARNINGS_PRINTED = 20

/** Prints the first skipped lines as `warning: file:line: problem` and counts the rest, for `summary()`. */
export function createSkipWarnings(print: (line: string) => void): { readonly onSkipped: (skipped: SkippedLine) => void; summary(): string | undefined } {
  let count = 0
  return {
    onSkipped: (skipped) => {
      count += 1
      if (count <= WARNINGS_PRINTED) print(`warning: ${skipped.file}:${skipped.line}: line skipped: ${skipped.problem}`)
    },
    summary: () => (count === 0 ? undefined : `warning: ${count} malformed recording line(s) skipped${count > WARNINGS_PRINTED ? ` (the first ${WARNINGS_PRINTED} listed)` : ''}`),
  }
}

/**
 * Why a parsed line cannot be used as a recorded exchange, or undefined when it can. Checks what the
 * tools read, no more: a recording from an older or newer fitconform with extra fields still reads.
 */
export function problemOfEntry(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a recorded exchange (not a JSON object)'
  const { request, response } = value
  if (!isObject(request)) return 'not a recorded exchange (no request)'
  if (!isObject(response)) return 'not a recorded exchange (no response)'
  if (typeof request.method !== 'string' || request.method === '') return 'request.method is not a text'
  if (typeof request.url !== 'string' || !URL.canParse(request.url)) return 'request.url is not an absolute URL'
  if (!isHeaderList(request.headers)) return 'request.headers is not a list of { name, value } texts'
  if (request.postData !== undefined && (!isObject(request.postData) || typeof request.postData.text !== 'string')) return 'request.postData has no text'
  if (!Number.isInteger(response.status)) return 'response.status is not a number'
  if (!isHeaderList(response.headers)) return 'response.headers is not a list of { name, value } texts'
  if (!isObject(response.content) || (response.content.text !== undefined && typeof response.content.text !== 'string')) return 'response.content is not an object with a text'
  if (typeof value._id !== 'number') return '_id is not a number'
  if (typeof value.startedDateTime !== 'string') return 'startedDateTime is not a text'
  if (value._findings !== undefined && !(Array.isArray(value._findings) && value._findings.every((f) => isObject(f) && FINDING_KINDS.has(f.kind as string) && typeof f.message === 'string'))) {
    return '_findings is not a list of { kind, message }'
  }
  if (value._endpoint !== undefined && (!isObject(value._endpoint) || typeof value._endpoint.method !== 'string' || typeof value._endpoint.path !== 'string')) return '_endpoint is not { method, path }'
  if (value._tokenId !== undefined && typeof value._tokenId !== 'string') return '_tokenId is not a text'
  if (value._error !== undefined && (!isObject(value._error) || typeof value._error.code !== 'string')) return '_error has no code'
  return undefined
}

const FINDING_KINDS = new Set(['violation', 'irregularity', 'note', 'unknown-endpoint'])

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isHeaderList(value: unknown): boolean {
  return Array.isArray(value) && value.every((h) => isObject(h) && typeof h.name === 'string' && typeof h.value === 'string')
}
