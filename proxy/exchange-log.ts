/**
 * The recording on disk: NDJSON, one `ExchangeEntry` a line, keys sorted (STYLE §2.12).
 *
 * Lines are gathered by `append` and written by `flush` with one synchronous call: the recording
 * thread flushes as soon as it has processed what it was handed (pipeline-worker.ts), so a crash
 * loses at most the exchanges still in flight and never leaves half a line behind a whole one.
 * Before it is kept, every line passes the redactor's final by-value check. With `maxBytes`, a full
 * file is renamed to `<file>.1`, `<file>.2`, … (oldest first) and a new one is started.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readdirSync, renameSync, writevSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import type { ExchangeEntry } from '../src/model/exchange.js'
import type { Redactor } from './redaction.js'
import { stableStringify } from './stable-json.js'

export interface ExchangeLogOptions {
  readonly file: string
  /** Rotate once the file would grow past this many bytes (`--max-bytes`). */
  readonly maxBytes?: number
  readonly redactor: Redactor
}

export interface ExchangeLog {
  /** Adds the entry's line; it reaches the file with the next `flush` (or `close`). */
  append(entry: ExchangeEntry): void
  /** Writes the lines appended since the last flush, with one call. */
  flush(): void
  close(): void
}

/** Lines gathered past this many bytes are written without waiting for `flush`. */
const FLUSH_BYTES = 1024 * 1024

export function openExchangeLog(options: ExchangeLogOptions): ExchangeLog {
  // Recordings hold personal data: readable by their owner only.
  let fd = openSync(options.file, 'a', 0o600)
  let size = fstatSync(fd).size
  let nextSuffix = highestRotation(options.file) + 1
  let closed = false
  let pending: Buffer[] = []
  let pendingBytes = 0
  const flush = (): void => {
    if (pending.length === 0) return
    writevSync(fd, pending)
    size += pendingBytes
    pending = []
    pendingBytes = 0
  }
  return {
    append(entry) {
      if (closed) return
      const bytes = Buffer.from(`${options.redactor.scrubLine(stableStringify(entry))}\n`)
      if (options.maxBytes !== undefined && size + pendingBytes > 0 && size + pendingBytes + bytes.length > options.maxBytes) {
        flush()
        closeSync(fd)
        renameSync(options.file, `${options.file}.${nextSuffix}`)
        nextSuffix += 1
        fd = openSync(options.file, 'a', 0o600)
        size = 0
      }
      pending.push(bytes)
      pendingBytes += bytes.length
      if (pendingBytes >= FLUSH_BYTES) flush()
    },
    flush() {
      if (!closed) flush()
    },
    close() {
      if (closed) return
      flush()
      closed = true
      closeSync(fd)
    },
  }
}

function highestRotation(file: string): number {
  const dir = dirname(file)
  const prefix = `${basename(file)}.`
  if (!existsSync(dir)) return 0
  let highest = 0
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue
    const n = Number(name.slice(prefix.length))
    if (Number.isInteger(n) && n > highest) highest = n
  }
  return highest
}

/** The files of a rotated recording, oldest first: `<file>.1`, `<file>.2`, …, then `<file>`. */
export function recordingFiles(file: string): string[] {
  const rotated: string[] = []
  for (let n = 1; n <= highestRotation(file); n += 1) {
    const candidate = `${file}.${n}`
    if (existsSync(candidate)) rotated.push(candidate)
  }
  return [...rotated, join(dirname(file), basename(file))]
}

/** One line of a recording: an entry, or why the line could not be read (e.g. cut by a crash). */
export type RecordingLine =
  | { readonly line: number; readonly entry: ExchangeEntry }
  | { readonly line: number; readonly problem: string }

/** Streams the entries of a recording file; memory does not grow with its length. */
export async function* readRecording(file: string): AsyncGenerator<RecordingLine> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
  let n = 0
  for await (const text of lines) {
    n += 1
    if (text.trim() === '') continue
    try {
      const entry = JSON.parse(text) as ExchangeEntry
      if (typeof entry !== 'object' || entry === null || typeof entry.request !== 'object' || typeof entry.response !== 'object') {
        yield { line: n, problem: 'not a recorded exchange (no request or response)' }
        continue
      }
      yield { line: n, entry }
    } catch (err) {
      yield { line: n, problem: `not JSON: ${(err as Error).message}` }
    }
  }
}
