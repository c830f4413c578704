import { BytesMemo } from './bytes-memo.js'

/**
 * Exchanges seen before, by their identity (exchange-ring.ts `recordIdentity`: every byte of the
 * request, the response and how it ended, not the id or the clock): a client polling a page makes the
 * same exchange again and again, and recording it again needs only its id and clock
 * (process-exchange.ts `processAgain`). Identities are compared byte for byte; a cheap fingerprint
 * only picks the one candidate (bytes-memo.ts).
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
