/**
 * Undoes `Content-Encoding` on a captured body (after it was forwarded, on zlib's thread pool) and
 * decides whether it is text. HAR 1.2 `content.text` holds the decoded body; binary goes as base64.
 */
import zlib from 'node:zlib'
import type { CapturedBody } from './recorder.js'

export interface DecodedBody {
  /** Decoded bytes, at most the cap. */
  readonly bytes: Buffer
  /** Bytes as transferred (encoded), in total. */
  readonly transferSize: number
  /** The body did not fit the cap, encoded or decoded. */
  readonly truncated: boolean
  /** Set when the declared encoding could not be undone; `bytes` are then the raw bytes. */
  readonly decodeError?: string
  /** The UTF-8 text, when the bytes are valid UTF-8 and look like text. */
  readonly text?: string
}

/** Decodes a captured body; `cap` bounds the decoded size too (no decompression bomb). */
export async function decodeBody(body: CapturedBody, contentEncoding: string | undefined, cap: number): Promise<DecodedBody> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
  let bytes = body.bytes
  let truncated = body.truncated
  let decodeError: string | undefined
  for (const coding of codings.reverse()) {
    try {
      const decoding = decodeOne(bytes, coding, cap, truncated)
      if (decoding === undefined) {
        decodeError = `unknown content-coding "${coding}"`
        break
      }
      const decoded = await decoding
      truncated ||= decoded.length > cap
      bytes = decoded.subarray(0, cap)
    } catch (err) {
      decodeError = `could not undo content-coding "${coding}": ${(err as Error).message}`
      bytes = body.bytes
      truncated = body.truncated
      break
    }
  }
  const text = decodeError === undefined ? utf8Text(bytes, truncated) : undefined
  return { bytes, transferSize: body.size, truncated, decodeError, text }
}

function decodeOne(bytes: Buffer, coding: string, cap: number, partial: boolean): Promise<Buffer> | undefined {
  // A truncated body is decoded as far as it goes; output stops at cap + 1 bytes (no bomb).
  const flush = { finishFlush: partial ? zlib.constants.Z_SYNC_FLUSH : zlib.constants.Z_FINISH }
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return drain(zlib.createGunzip(flush), bytes, cap)
    case 'deflate':
      // Some servers send raw deflate under this name: try the zlib wrapper first.
      return drain(zlib.createInflate(flush), bytes, cap).catch(() => drain(zlib.createInflateRaw(flush), bytes, cap))
    case 'br':
      return drain(
        zlib.createBrotliDecompress({ finishFlush: partial ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.BROTLI_OPERATION_FINISH }),
        bytes,
        cap,
      )
    default:
      return undefined
  }
}

function drain(stream: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress, bytes: Buffer, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    let settled = false
    const settle = (error?: Error): void => {
      if (settled) return
      settled = true
      if (error === undefined) resolve(Buffer.concat(chunks, length))
      else reject(error)
    }
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      length += chunk.length
      if (length > cap) {
        settle()
        stream.destroy()
      }
    })
    stream.on('end', () => settle())
    stream.on('error', (error) => settle(error))
    stream.end(bytes)
  })
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** The text of a body that is valid UTF-8 without control bytes; a cut multi-byte character at the end is dropped. */
function utf8Text(bytes: Buffer, truncated: boolean): string | undefined {
  for (let end = bytes.length; end >= Math.max(0, bytes.length - (truncated ? 3 : 0)); end -= 1) {
    try {
      const text = UTF8.decode(bytes.subarray(0, end))
      return hasBinaryControls(text) ? undefined : text
    } catch {
      // try one byte shorter: the cap may have cut a character
    }
  }
  return undefined
}

/** NUL and most C0 controls mean binary; tab, LF, vertical tab, form feed and CR are text. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const BINARY_CONTROL = /[\x00-\x08\x0e-\x1f]/

function hasBinaryControls(text: string): boolean {
  return BINARY_CONTROL.test(text)
}
