/**
 * The recording thread's memory of bytes seen again, by the bytes themselves: a cheap fingerprint
 * picks the one candidate, and the bytes are compared in full before it is taken (`BytesMemo`).
 * Two memos stand on it: bodies (`BodyCopies`) and whole exchanges (`ExchangeMemo`). Each is bounded
 * by the bytes it holds and starts over when full (a recording never makes it grow past that).
 */
import { copyOf, type CopyBody } from './exchange-ring.js'

/** Values kept by byte strings; see above. */
export class BytesMemo<V> {
  readonly #byFingerprint = new Map<number, { readonly key: Buffer; readonly value: V; readonly bytes: number }>()
  readonly #maxBytes: number
  #bytes = 0

  constructor(options: { readonly maxBytes: number }) {
    this.#maxBytes = options.maxBytes
  }

  /** The value kept for bytes equal to `key`'s. */
  get(key: Buffer): V | undefined {
    const known = this.#byFingerprint.get(fingerprint(key))
    return known !== undefined && known.key.equals(key) ? known.value : undefined
  }

  /**
   * Keeps `value` for bytes equal to `key`'s, which hold about `bytes` together. `keep` gives what is
   * kept of the key: a copy where it is a view of memory about to be reused (the key itself by
   * default). A pair too large to be worth keeping (over a sixteenth of the bound) is not kept.
   */
  set(key: Buffer, value: V, bytes: number, keep: (key: Buffer) => Buffer = itself): void {
    if (bytes > this.#maxBytes / 16) return
    if (this.#bytes + bytes > this.#maxBytes) {
      this.#byFingerprint.clear()
      this.#bytes = 0
    }
    const at = fingerprint(key)
    const replaced = this.#byFingerprint.get(at)
    if (replaced !== undefined) this.#bytes -= replaced.bytes
    this.#byFingerprint.set(at, { key: keep(key), value, bytes })
    this.#bytes += bytes
  }
}

/** Bodies shorter than this are copied each time: comparing and keeping them costs more than it saves. */
export const KEPT_BODY_BYTES = 1024

/**
 * Bodies out of the ring, kept by their bytes: a resource read again answers the same bytes, and
 * handing out the very copy kept from the first reading makes everything after it cheap: its decoded
 * text (body-decoding.ts, by the copy) is then the very string of the first reading, which the memos
 * that validate, relate, escape and scrub bodies by text find without hashing or comparing it again
 * (V8 keeps a string's hash, and equal references compare at once). A body not seen before is copied
 * as before.
 */
export class BodyCopies {
  readonly #copies: BytesMemo<Buffer>

  constructor(options: { readonly maxBytes: number }) {
    this.#copies = new BytesMemo(options)
  }

  /** The kept copy of bytes equal to `view`'s, or a new copy (kept when it fits). */
  readonly copy: CopyBody = (view) => {
    if (view.length < KEPT_BODY_BYTES) return copyOf(view)
    const known = this.#copies.get(view)
    if (known !== undefined) return known
    const copy = copyOf(view)
    this.#copies.set(copy, copy, copy.length)
    return copy
  }
}

/**
 * Exchanges seen before, by their identity (exchange-ring.ts `recordIdentity`: every byte of the
 * request, the response and how it ended, not the id or the clock): a client polling a page makes the
 * same exchange again and again, and recording it again needs only its id and clock
 * (process-exchange.ts `processAgain`). Identities are compared byte for byte; a cheap fingerprint
 * only picks the one candidate (`BytesMemo`).
 *
 * Where exchanges all differ (each request with an id of its own, as real clients send), keeping a
 * copy of each costs and never pays: after a window of WINDOW exchanges none of which was found again,
 * only one in SAMPLE is kept, until one is found again (a page polled is found again at once).
 */
export class ExchangeMemo<T> {
  readonly #exchanges: BytesMemo<T>
  /** Exchanges offered to `set`, and found by `get`, in the current window. */
  #offered = 0
  #found = 0
  #sampling = false

  constructor(options: { readonly maxBytes: number }) {
    this.#exchanges = new BytesMemo(options)
  }

  get(identity: Buffer): T | undefined {
    const known = this.#exchanges.get(identity)
    if (known === undefined) return undefined
    this.#found += 1
    this.#sampling = false
    return known
  }

  /**
   * Keeps a copy of the identity (it may be a view of memory about to be reused) with its value, which
   * holds about `valueBytes`.
   */
  set(identity: Buffer, value: T, valueBytes: number): void {
    this.#offered += 1
    if (this.#offered >= WINDOW) {
      this.#sampling = this.#found === 0
      this.#offered = 0
      this.#found = 0
    }
    if (this.#sampling && this.#offered % SAMPLE !== 0) return
    this.#exchanges.set(identity, value, identity.length + valueBytes, (view) => Buffer.from(view))
  }
}

/** Exchanges a window counts; and, in a window where none was found again, one kept in this many. */
const WINDOW = 256
const SAMPLE = 16

const itself = (key: Buffer): Buffer => key

/** Words sampled through the bytes, and their length: what tells most different byte strings apart at a glance. */
const SAMPLES = 32

/** A number that tells most different byte strings apart at a glance (equal bytes, equal numbers). */
function fingerprint(bytes: Buffer): number {
  const length = bytes.length
  let hash = length
  if (length < 4) return hash
  const step = Math.max(4, Math.floor(length / SAMPLES) & ~3)
  for (let at = 0; at + 4 <= length; at += step) hash = (Math.imul(hash, 31) + bytes.readInt32LE(at)) | 0
  return (Math.imul(hash, 31) + bytes.readInt32LE(length - 4)) | 0
}
