/**
 * The recording on disk: NDJSON, one `ExchangeEntry` a line, keys sorted (STYLE §2.12).
 *
 * Lines are gathered by `append` and written by `flush`: the recording thread flushes as soon as it
 * has processed what it was handed (pipeline-worker.ts), so a crash loses at most the exchanges still
 * in flight. Lines come scrubbed (recording-line.ts `joinLine`). With
 * `maxBytes`, a full file is renamed to `<file>.1`, `<file>.2`, … (oldest first) and a new one is
 * started.
 *
 * A write that fails (a full disk, a file made read-only, a device error) never throws and never
 * leaves half a line: the file is cut back to the last whole line, the lines that did not make it are
 * counted as lost, and the next flush tries again, so recording resumes once there is room.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readdirSync, renameSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { TextMemo } from '../analyze/text-memo.js'

export interface ExchangeLogOptions {
  readonly file: string
  /** Rotate once the file would grow past this many bytes (`--max-bytes`). */
  readonly maxBytes?: number
}

/** What became of the lines appended since the last flush. */
export interface FlushResult {
  readonly written: number
  readonly lost: number
  /** Why lines were lost, e.g. `ENOSPC: no space left on device, write` (no line content). */
  readonly problem?: string
}

export interface ExchangeLog {
  /**
   * Adds a recording line, scrubbed (recording-line.ts), given in pieces that joined are the line; it
   * reaches the file with the next `flush` (or `close`).
   */
  append(pieces: readonly string[]): void
  /** Writes the lines appended since the last flush; never throws. */
  flush(): FlushResult
  close(): FlushResult
}

/** Lines gathered past this many bytes are written without waiting for `flush`. */
const FLUSH_BYTES = 1024 * 1024

/**
 * Pieces at least this long are kept encoded: a resource read again comes as the very string of its
 * first reading (recording-line.ts keeps its escaped, scrubbed text), so it is measured and encoded
 * once and then copied as bytes. A shorter piece costs less to encode again than to look up; a
 * longer one is not kept, and is encoded straight into the line as before.
 */
const KEPT_PIECE_CHARS = 1024
const LONGEST_KEPT_PIECE_CHARS = 256 * 1024
const encodedPieces = new TextMemo<Buffer>({ maxTextChars: LONGEST_KEPT_PIECE_CHARS })

/** Opens (creates) the recording; throws when it cannot be opened for appending. */
export function openExchangeLog(options: ExchangeLogOptions): ExchangeLog {
  // Recordings hold personal data: readable by their owner only.
  let fd: number | undefined = openSync(options.file, 'a', 0o600)
  let size = fstatSync(fd).size
  let nextSuffix = highestRotation(options.file) + 1
  let closed = false
  // Lines are encoded as they come into one buffer, reused from write to write, a piece at a time.
  // (Joining them into one string first cost more than building the line: V8 flattens each line's
  // string parts again.)
  const pending = new PendingLines()
  let written = 0
  let lost = 0
  let problem: string | undefined

  const fail = (err: unknown, lines: number): void => {
    lost += lines
    problem = describeWriteError(err)
  }
  const writePending = (): void => {
    const lines = pending.lines
    if (lines === 0) return
    if (fd === undefined) {
      // The last rotation could not open a new file: try again now.
      try {
        fd = openSync(options.file, 'a', 0o600)
        size = fstatSync(fd).size
      } catch (err) {
        pending.clear()
        fail(err, lines)
        return
      }
    }
    const whole = writeWholeLines(fd, size, pending.bytes())
    pending.clear()
    size += whole.bytes
    written += whole.lines
    if (whole.error !== undefined) fail(whole.error, lines - whole.lines)
  }
  const rotate = (): void => {
    writePending()
    try {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
      renameSync(options.file, `${options.file}.${nextSuffix}`)
      nextSuffix += 1
      size = 0
      fd = openSync(options.file, 'a', 0o600)
    } catch (err) {
      // Lines go on to the file as it is (or, with no file open, are counted lost on the next write).
      problem = describeWriteError(err)
    }
  }
  const result = (): FlushResult => {
    const outcome: FlushResult = problem === undefined ? { written, lost } : { written, lost, problem }
    written = 0
    lost = 0
    problem = undefined
    return outcome
  }
  return {
    append(pieces) {
      if (closed) return
      let bytes = 1
      const parts = pieces.map((piece) => {
        const part =
          piece.length < KEPT_PIECE_CHARS || piece.length > LONGEST_KEPT_PIECE_CHARS
            ? piece
            : encodedPieces.get('', piece, () => Buffer.from(piece, 'utf8'))
        bytes += typeof part === 'string' ? Buffer.byteLength(part) : part.length
        return part
      })
      if (options.maxBytes !== undefined && size + pending.size > 0 && size + pending.size + bytes > options.maxBytes)
        rotate()
      pending.add(parts, bytes)
      if (pending.size >= FLUSH_BYTES) writePending()
    },
    flush() {
      if (!closed) writePending()
      return result()
    },
    close() {
      if (closed) return result()
      writePending()
      closed = true
      if (fd !== undefined) closeSync(fd)
      return result()
    },
  }
}

/**
 * Lines waiting to be written, as UTF-8 in one buffer reused from write to write. It grows to hold
 * what is gathered between writes (FLUSH_BYTES and one line) and shrinks back after an unusually long line.
 */
class PendingLines {
  static readonly #INITIAL = 64 * 1024
  #buffer = Buffer.allocUnsafeSlow(PendingLines.#INITIAL)
  /** Bytes used. */
  size = 0
  lines = 0

  /** Adds a line (its pieces, without its newline) that takes `bytes` bytes with its newline. */
  add(pieces: readonly (string | Buffer)[], bytes: number): void {
    if (this.size + bytes > this.#buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.size + bytes, 2 * this.#buffer.length))
      this.#buffer.copy(grown, 0, 0, this.size)
      this.#buffer = grown
    }
    for (const piece of pieces) {
      if (typeof piece === 'string') this.size += this.#buffer.write(piece, this.size)
      else {
        this.#buffer.set(piece, this.size)
        this.size += piece.length
      }
    }
    this.#buffer[this.size] = 10
    this.size += 1
    this.lines += 1
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.size)
  }

  clear(): void {
    this.size = 0
    this.lines = 0
    if (this.#buffer.length > 2 * FLUSH_BYTES) this.#buffer = Buffer.allocUnsafeSlow(PendingLines.#INITIAL)
  }
}

/**
 * Writes whole lines (`bytes` ends with a newline) until done or an error; a line cut short by the
 * error is cut off the file again (from `sizeBefore`), so the file always ends on a whole line.
 */
function writeWholeLines(
  fd: number,
  sizeBefore: number,
  bytes: Buffer,
): { bytes: number; lines: number; error?: unknown } {
  let done = 0
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done)
    return { bytes: done, lines: countNewlines(bytes, done) }
  } catch (error) {
    // (A negative offset would search from the end: nothing written is nothing whole.)
    const whole = done === 0 ? 0 : bytes.lastIndexOf(10, done - 1) + 1
    if (whole < done) {
      try {
        ftruncateSync(fd, sizeBefore + whole)
      } catch {
        // A device that cannot be truncated took no bytes either (e.g. /dev/full).
      }
    }
    return { bytes: whole, lines: countNewlines(bytes, whole), error }
  }
}

function countNewlines(bytes: Buffer, end: number): number {
  let count = 0
  for (let at = bytes.indexOf(10); at !== -1 && at < end; at = bytes.indexOf(10, at + 1)) count += 1
  return count
}

function describeWriteError(err: unknown): string {
  const code = (err as { code?: unknown }).code
  const message = err instanceof Error ? err.message : String(err)
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message
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
