/**
 * Bodies out of the ring, kept by their bytes: a resource read again answers the same bytes, and
 * handing out the very copy kept from the first reading makes everything after it cheap: its decoded
 * text (body-decoding.ts, by the copy) is then the very string of the first reading, which the memos
 * that validate, relate, escape and scrub bodies by text find without hashing or comparing it again
 * (V8 keeps a string's hash, and equal references compare at once). A body not seen before is copied
 * as before.
 */
import { BytesMemo } from './bytes-memo.js'
import { copyOf, type CopyBody } from './exchange-ring.js'

/** Bodies shorter than this are copied each time: comparing and keeping them costs more than it saves. */
const KEPT_BODY_BYTES = 1024

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
