// Tokens one character off the main token. A server that compares only part of a token (a prefix,
// the length, all but the last character) serves them; §5 rules 1–2 tie a token to a user, so each
// must be refused like a token the server never issued. They hold all but one character of the real
// token: the run redacts them like the token itself, and a reproduction names them by the variable.
import { NEAR_MISS_TOKENS, type AuthChoice, type NearMissToken } from '../../model/scenario.js'

export function isNearMiss(auth: AuthChoice): auth is NearMissToken {
  return (NEAR_MISS_TOKENS as readonly string[]).includes(auth)
}

/** The replacement for a last character: any other token character would do; this one is fixed so runs repeat. */
function otherThan(char: string): string {
  return char === 'A' ? 'B' : 'A'
}

/** The near miss of `token` (a token of one character is cut to nothing only in name: it gets a character changed). */
export function nearMissToken(token: string, kind: NearMissToken): string {
  switch (kind) {
    case 'near-miss-changed':
      return token.slice(0, -1) + otherThan(token.slice(-1))
    case 'near-miss-cut':
      return token.length > 1 ? token.slice(0, -1) : otherThan(token)
    case 'near-miss-appended':
      return `${token}A`
  }
}

/** Every near miss of `token`, each with the label its redaction shows. */
export function nearMissSecrets(token: string, role: string): [string, string][] {
  return NEAR_MISS_TOKENS.map((kind) => [nearMissToken(token, kind), `${role}, ${kind}`])
}

/**
 * How a shell writes the near miss from the variable holding the token, for reproductions:
 * `${FITCONFORM_TOKEN%?}A`. `sent` is the near miss as sent; only its last character is used.
 */
export function nearMissShellWord(envVar: string, kind: NearMissToken, sent: string): string {
  if (kind === 'near-miss-appended') return `\${${envVar}}A`
  return kind === 'near-miss-cut' ? `\${${envVar}%?}` : `\${${envVar}%?}${sent.slice(-1)}`
}
