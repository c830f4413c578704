/**
 * Which token role a recorded exchange is replayed with. The ranking of tokens needs the whole
 * recording, so the scaffolder counts uses in a first pass (an entry per distinct token, not per
 * exchange) and decides roles from the counts in the second.
 */
import type { TokenRole } from './build-step.js'
import type { ScaffoldEntry } from './scaffold-exchange.js'

export interface TokenUse {
  /** Uses, the 403 answers left out (their role comes from the §7 reason). */
  count: number
  /** Whether any answer to it was other than 401: a token the server knows. */
  known: boolean
  /**
   * The role a 403 body's §7 reason named for this token: its other exchanges (a HEAD's bodiless 403, a 200
   * elsewhere) are that role's too.
   */
  reasonRole?: TokenRole
}

export type TokenUses = Map<string, TokenUse>

export function countTokenUse(
  uses: TokenUses,
  x: { readonly tokenId?: string; readonly status: number; readonly responseJson?: unknown },
): void {
  if (x.tokenId === undefined) return
  const use = uses.get(x.tokenId) ?? { count: 0, known: false }
  if (x.status !== 403) use.count += 1
  const role = x.status === 403 ? roleOfReason(x.responseJson) : undefined
  if (role !== undefined) use.reasonRole = role
  // 401 is how HTTP refuses credentials (RFC 9110 §15.5.2); a token only ever answered so is one the server does not know.
  if (x.status !== 401) use.known = true
  uses.set(x.tokenId, use)
}

/**
 * Token roles: no Authorization → none; not Bearer, or a token that only ever got 401 → invalid; a 403
 * → the role its §7 reason names; otherwise the most used token is `token` and the next one
 * `other-token` (a second user).
 */
export function createTokenRoles(uses: ReadonlyMap<string, TokenUse>): (x: ScaffoldEntry) => TokenRole {
  const ranked = [...uses]
    .filter(([, use]) => use.known && use.reasonRole === undefined)
    .sort((a, b) => b[1].count - a[1].count)
    .map(([id]) => id)
  const other = ranked[1]
  return (x) => {
    if (!x.hasAuthorization) return 'none'
    if (x.findings.some((f) => f.rule === 'AUTH-BEARER-SENT')) return 'invalid'
    if (x.tokenId !== undefined && uses.get(x.tokenId)?.known === false) return 'invalid'
    const role =
      (x.status === 403 ? roleOfReason(x.responseJson) : undefined) ??
      (x.tokenId === undefined ? undefined : uses.get(x.tokenId)?.reasonRole)
    if (role !== undefined) return role
    return x.tokenId !== undefined && x.tokenId === other ? 'other-token' : 'token'
  }
}

/** The token role a §7 ErrorMessage names: `Insufficient permission`, or `Revoked` with or without deletion. */
function roleOfReason(body: unknown): TokenRole | undefined {
  const { reason, delete_health: deleteHealth } = (typeof body === 'object' && body !== null ? body : {}) as {
    reason?: unknown
    delete_health?: unknown
  }
  if (reason === 'Insufficient permission') return 'limited-token'
  if (reason === 'Revoked') return String(deleteHealth) === 'true' ? 'revoked-delete-token' : 'revoked-token'
  return undefined
}
