import { createScrub, isCredentialField, isCredentialHeader, scrubDeep } from '../../shared/secrets.js'

/** Replaces secret values wherever they occur, by value: headers, URLs, bodies, messages. */
export type Redactor = <T>(value: T) => T

/**
 * The runner's redaction (the rules are src/shared/secrets.ts, the same as the proxy's): every token,
 * in every encoded form, becomes `[REDACTED <role>]`; credential headers and token fields are
 * redacted by name whatever their length. Walks any depth without recursion.
 *
 * An object this redactor returned (or any object inside it) is redacted already: when it comes back
 * inside a larger value (a step result inside the whole run's result), it is kept as it is and only
 * what is new around it is walked. That makes redacting the whole result at the end cost what was
 * added since, not the whole run again.
 */
export function createRedactor(secrets: ReadonlyMap<string, string>): Redactor {
  const scrub = remembered(createScrub([...secrets].map(([value, label]) => [value, `[REDACTED ${label}]`] as const)))
  const kindOfField = remembered((key: string) =>
    isCredentialHeader(key) ? 'header' : isCredentialField(key) ? 'field' : 'other',
  )
  const byName = (key: string, value: string): string | undefined => {
    const kind = kindOfField(key)
    if (kind === 'header') return redactCredentialHeader(value, scrub)
    if (kind === 'field') return '[REDACTED]'
    return undefined
  }
  const options = { redactField: byName, scrubbed: new WeakSet<object>() }
  return (value) => scrubDeep(value, scrub, options)
}

/** `Bearer abc` → `Bearer [REDACTED]`, unless the value already shows only a redaction. */
function redactCredentialHeader(value: string, scrub: (text: string) => string): string {
  const scrubbed = scrub(value)
  if (/^\s*(?:[A-Za-z][\w-]*\s+)?\[REDACTED[^\]]*\]\s*$/.test(scrubbed)) return scrubbed
  const scheme = /^\s*([A-Za-z][\w-]{0,19})\s+\S/.exec(value)?.[1]
  return scheme ? `${scheme} [REDACTED]` : '[REDACTED]'
}

/**
 * Texts worth remembering: keys, the words results repeat on every step (`passed`, `status`, …) and the
 * lines a suite repeats across scenarios (URLs, curl lines, check messages). A hit costs a hash and a
 * compare; a miss, a search for every form of every secret. At most ~10 MB (10,000 × 512 characters, twice).
 */
const LONGEST_REMEMBERED = 512
/** Past this many, the memory starts again: a server's body full of distinct keys cannot grow it without bound. */
const MOST_REMEMBERED = 10_000

/**
 * A pure function of short texts, remembered: a run's results repeat the same field names and words
 * on every step, and looking one up costs less than searching it for every form of every secret.
 */
function remembered<R>(compute: (text: string) => R): (text: string) => R {
  const seen = new Map<string, R>()
  return (text) => {
    if (text.length > LONGEST_REMEMBERED) return compute(text)
    let result = seen.get(text)
    if (result === undefined) {
      if (seen.size >= MOST_REMEMBERED) seen.clear()
      result = compute(text)
      seen.set(text, result)
    }
    return result
  }
}
