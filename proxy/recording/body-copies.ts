/**
 * Bodies out of the ring, kept by their bytes: a resource read again answers the same bytes, and
 * handing out the very copy kept from the first reading makes everything after it cheap: its decoded
 * text (body-decoding.ts, by the copy) is then the very string of the first reading, which the memos
 * that validate, relate, escape and scrub bodies by text find without hashing or comparing it again
 * (V8 keeps a string's hash, and equal references compare at once). A body not seen before is copied
 * as before. Bounded by the bytes it holds; when full it starts over.
 */
import { fingerprint } from './exchange-memo.js'
import { copyOf, type CopyBody } from './exchange-ring.js'

/** Bodies shorter than this are copied each time: comparing and keeping them costs more than it saves. */
const KEPT_BODY_BYTES = 1024

export class BodyCopies {
  readonly #byFingerprint = new Map<number, Buffer>()
  readonly #maxBytes: number
  #bytes = 0

  constructor(options: { readonly maxBytes: number }) {
    this.#maxBytes = options.maxBytes
  }

  /** The kept copy of bytes equal to `view`'s, or a new copy (kept when it fits). */
  readonly copy: CopyBody = (view) => {
    if (view.length < KEPT_BODY_BYTES) return copyOf(view)
    const key = fingerprint(view)
    const known = this.#byFingerprint.get(key)
    if (known !== undefined && known.equals(view)) return known
    const copy = copyOf(view)
    if (copy.length > this.#maxBytes / 16) return copy
    if (this.#bytes + copy.length > this.#maxBytes) {
      this.#byFingerprint.clear()
      this.#bytes = 0
    }
    if (known !== undefined) this.#bytes -= known.length
    this.#byFingerprint.set(key, copy)
    this.#bytes += copy.length
    return copy
  }
}
