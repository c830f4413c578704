/**
 * Results of a pure function of (a name, a text), kept for texts seen again: a client polling a page
 * gets the same bytes, and validating them again gives the same findings. Bounded by the characters
 * of the texts it holds; when full it starts over (a recording never makes it grow past that).
 *
 * The recording thread's memos hold the very strings of the bodies it reads (`BodyCopies` of
 * recording/bytes-memo.ts hands out one text for bytes seen again), so their texts are shared, not
 * copied, from memo to memo; and a text is found by reference, at no cost of hashing or comparing
 * it. A text of up to
 * DEFAULT_MAX_TEXT_CHARS is kept: an activity with a long path is tens of kilobytes, and one that is
 * not kept is validated, parsed and scrubbed anew at each reading.
 */
const DEFAULT_MAX_CHARS = 4 * 1024 * 1024
const DEFAULT_MAX_TEXT_CHARS = 256 * 1024

export class TextMemo<T> {
  readonly #byName = new Map<string, Map<string, T>>()
  readonly #maxChars: number
  readonly #maxTextChars: number
  #chars = 0

  constructor(options: { readonly maxChars?: number; readonly maxTextChars?: number } = {}) {
    this.#maxChars = options.maxChars ?? DEFAULT_MAX_CHARS
    this.#maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS
  }

  /** The kept result, or `compute()`'s (kept when the text is short enough). */
  get(name: string, text: string, compute: () => T): T {
    const known = this.#byName.get(name)?.get(text)
    if (known !== undefined) return known
    const value = compute()
    if (text.length > this.#maxTextChars) return value
    if (this.#chars + text.length > this.#maxChars) {
      this.#byName.clear()
      this.#chars = 0
    }
    let texts = this.#byName.get(name)
    if (texts === undefined) this.#byName.set(name, (texts = new Map()))
    texts.set(text, value)
    this.#chars += text.length
    return value
  }
}
