/**
 * Undoes `Content-Encoding` on a captured body (after it was forwarded, with the decoder the runner
 * uses too: src/shared/content-decoding.ts) and decides whether it is text. HAR 1.2 `content.text` holds the decoded
 * body; binary goes as base64.
 */
import { decodeContent } from '../../src/shared/content-decoding.js'
import { TextMemo } from '../analyze/text-memo.js'
import { KEPT_BODY_BYTES } from './bytes-memo.js'
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

/**
 * Decodes a captured body; `cap` bounds the decoded size too (no decompression bomb). A body whose
 * bytes are the very buffer decoded before (`BodyCopies` of bytes-memo.ts hands out one copy of bytes
 * seen again) gives the same decoded body, so its text is the very string of the first reading.
 */
export async function decodeBody(
  body: CapturedBody,
  contentEncoding: string | undefined,
  cap: number,
): Promise<DecodedBody> {
  // Most requests have no body: nothing to decode, and nothing to remember.
  if (body.size === 0 && body.bytes.length === 0 && contentEncoding === undefined)
    return { bytes: body.bytes, transferSize: 0, truncated: false, decodeError: undefined, text: '' }
  const known = decodedBodies.get(body.bytes)
  if (
    known !== undefined &&
    known.contentEncoding === contentEncoding &&
    known.cap === cap &&
    known.decoded.transferSize === body.size &&
    known.capturedTruncated === body.truncated
  )
    return known.decoded
  const { bytes, truncated, decodeError } = await decodeContent(body.bytes, contentEncoding, cap, body.truncated)
  const text = decodeError === undefined ? utf8Text(bytes, truncated) : undefined
  const decoded = { bytes, transferSize: body.size, truncated, decodeError, text }
  // A shorter body is a copy of its own at every reading (bytes-memo.ts): it is never met again.
  if (body.bytes.length >= KEPT_BODY_BYTES)
    decodedBodies.set(body.bytes, { contentEncoding, cap, capturedTruncated: body.truncated, decoded })
  return decoded
}

/** Decoded bodies by the captured bytes they came from (held no longer than those bytes are). */
const decodedBodies = new WeakMap<
  Buffer,
  {
    readonly contentEncoding: string | undefined
    readonly cap: number
    readonly capturedTruncated: boolean
    readonly decoded: DecodedBody
  }
>()

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

/**
 * BINARY_CONTROL's answers by text: a resource read again is decoded to the same text, and the
 * memos that validate and relate bodies hash that string anyway (V8 keeps a string's hash), so a
 * lookup costs less than the search.
 */
const binaryControls = new TextMemo<boolean>()

function hasBinaryControls(text: string): boolean {
  return binaryControls.get('', text, () => BINARY_CONTROL.test(text))
}
