/**
 * A map that keeps the most recently used entries up to a count: the proxy may see millions of
 * exchanges, and a relation needs only what was seen lately (a client lists a page, then opens an
 * activity of it). The oldest entry goes first; reading an entry makes it the newest.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #maxEntries: number

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next()
      if (oldest.done !== true) this.#entries.delete(oldest.value)
    }
  }

  delete(key: K): void {
    this.#entries.delete(key)
  }
}
