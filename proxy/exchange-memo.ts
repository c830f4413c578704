/**
 * Exchanges seen before, by their identity (exchange-ring.ts `recordIdentity`: every byte of the
 * request, the response and how it ended, not the id or the clock): a client polling a page makes the
 * same exchange again and again, and recording it again needs only its id and clock
 * (process-exchange.ts `processAgain`). Identities are compared byte for byte; a cheap fingerprint
 * only picks the one candidate. Bounded by the bytes it holds; when full it starts over.
 */
export class ExchangeMemo<T> {
  readonly #byFingerprint = new Map<number, { readonly identity: Buffer; readonly value: T; readonly bytes: number }>()
  readonly #maxBytes: number
  #bytes = 0

  constructor(options: { readonly maxBytes: number }) {
    this.#maxBytes = options.maxBytes
  }

  get(identity: Buffer): T | undefined {
    const known = this.#byFingerprint.get(fingerprint(identity))
    return known !== undefined && known.identity.equals(identity) ? known.value : undefined
  }

  /**
   * Keeps a copy of the identity (it may be a view of memory about to be reused) with its value, which
   * holds about `valueBytes`.
   */
  set(identity: Buffer, value: T, valueBytes: number): void {
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

/** Words sampled through the identity, and its length: what tells most different exchanges apart at a glance. */
const SAMPLES = 32

function fingerprint(identity: Buffer): number {
  const length = identity.length
  let hash = length
  if (length < 4) return hash
  const step = Math.max(4, Math.floor(length / SAMPLES) & ~3)
  for (let at = 0; at + 4 <= length; at += step) hash = (Math.imul(hash, 31) + identity.readInt32LE(at)) | 0
  return (Math.imul(hash, 31) + identity.readInt32LE(length - 4)) | 0
}
