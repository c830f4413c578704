/**
 * Exchanges seen before, by their identity (exchange-ring.ts `recordIdentity`: every byte of the
 * request, the response and how it ended, not the id or the clock): a client polling a page makes the
 * same exchange again and again, and recording it again needs only its id and clock
 * (process-exchange.ts `processAgain`). Identities are compared byte for byte; a cheap fingerprint
 * only picks the one candidate. Bounded by the bytes it holds; when full it starts over.
 *
 * Where exchanges all differ (each request with an id of its own, as real clients send), keeping a
 * copy of each costs and never pays: after a window of WINDOW exchanges none of which was found again,
 * only one in SAMPLE is kept, until one is found again (a page polled is found again at once).
 */
export class ExchangeMemo<T> {
  readonly #byFingerprint = new Map<number, { readonly identity: Buffer; readonly value: T; readonly bytes: number }>()
  readonly #maxBytes: number
  #bytes = 0
  /** Exchanges offered to `set`, and found by `get`, in the current window. */
  #offered = 0
  #found = 0
  #sampling = false

  constructor(options: { readonly maxBytes: number }) {
    this.#maxBytes = options.maxBytes
  }

  get(identity: Buffer): T | undefined {
    const known = this.#byFingerprint.get(fingerprint(identity))
    if (known === undefined || !known.identity.equals(identity)) return undefined
    this.#found += 1
    this.#sampling = false
    return known.value
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
    const bytes = identity.length + valueBytes
    if (bytes > this.#maxBytes / 16) return
    if (this.#bytes + bytes > this.#maxBytes) {
      this.#byFingerprint.clear()
      this.#bytes = 0
    }
    const key = fingerprint(identity)
    const replaced = this.#byFingerprint.get(key)
    if (replaced !== undefined) this.#bytes -= replaced.bytes
    this.#byFingerprint.set(key, { identity: Buffer.from(identity), value, bytes })
    this.#bytes += bytes
  }
}

/** Exchanges a window counts; and, in a window where none was found again, one kept in this many. */
const WINDOW = 256
const SAMPLE = 16

/** Words sampled through the identity, and its length: what tells most different exchanges apart at a glance. */
const SAMPLES = 32

/** A number that tells most different byte strings apart at a glance (equal bytes, equal numbers). */
export function fingerprint(identity: Buffer): number {
  const length = identity.length
  let hash = length
  if (length < 4) return hash
  const step = Math.max(4, Math.floor(length / SAMPLES) & ~3)
  for (let at = 0; at + 4 <= length; at += step) hash = (Math.imul(hash, 31) + identity.readInt32LE(at)) | 0
  return (Math.imul(hash, 31) + identity.readInt32LE(length - 4)) | 0
}
