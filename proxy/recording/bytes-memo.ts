/**
 * Values kept by byte strings, for the recording thread's two memos of bytes seen again: bodies
 * (body-copies.ts) and whole exchanges (exchange-memo.ts). A cheap fingerprint picks the one
 * candidate, and the bytes are compared in full before it is taken. Bounded by the bytes it holds;
 * when full it starts over (a recording never makes it grow past that).
 */
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
