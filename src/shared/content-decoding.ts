/**
 * Undoes `Content-Encoding` (gzip, deflate, br; listed codings in reverse order) with the decoded
 * size capped: one decoder for the runner (src/execute/http/http-client.ts) and the proxy
 * (proxy/recording/body-decoding.ts), so a decompression bomb is stopped in both the same way.
 */
import zlib from 'node:zlib'

export interface DecodedContent {
  /** Decoded bytes, at most `cap`; the bytes as they came when a coding could not be undone. */
  readonly bytes: Buffer
  /** The decoded body did not fit the cap (or the input was already cut short). */
  readonly truncated: boolean
  /** Set when a declared coding is unknown or its data is corrupt. */
  readonly decodeError?: string
}

/** `partial`: the input itself was cut short, decode as far as it goes. */
export async function decodeContent(
  bytes: Buffer,
  contentEncoding: string | undefined,
  cap: number,
  partial = false,
): Promise<DecodedContent> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
  let current = bytes
  let truncated = partial
  for (const coding of codings.reverse()) {
    try {
      const decoding = decodeOne(current, coding, cap, truncated)
      if (decoding === undefined)
        return { bytes, truncated: partial, decodeError: `unknown content-coding "${coding}"` }
      const decoded = await decoding
      truncated ||= decoded.length > cap
      current = decoded.subarray(0, cap)
    } catch (error) {
      return {
        bytes,
        truncated: partial,
        decodeError: `could not undo content-coding "${coding}": ${(error as Error).message}`,
      }
    }
  }
  return { bytes: current, truncated }
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
        zlib.createBrotliDecompress({
          finishFlush: partial ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.BROTLI_OPERATION_FINISH,
        }),
        bytes,
        cap,
      )
    default:
      return undefined
  }
}

function drain(
  stream: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress,
  bytes: Buffer,
  cap: number,
): Promise<Buffer> {
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
