/**
 * Which token role a recorded exchange is replayed with. The ranking of tokens needs the whole
 * recording, so the scaffolder counts uses in a first pass (a map per distinct token, not per exchange)
 * and decides roles from the counts in the second.
 */
import type { TokenRole } from './build-step.js'
import type { ScaffoldExchange } from './scaffold-exchange.js'

/** Uses of each token id, the 403 answers left out (their role comes from the §7 reason). */
export type TokenUses = Map<string, number>

export function countTokenUse(uses: TokenUses, x: { readonly tokenId?: string; readonly status: number }): void {
  if (x.tokenId !== undefined && x.status !== 403) uses.set(x.tokenId, (uses.get(x.tokenId) ?? 0) + 1)
}

/**
 * Token roles: no Authorization → none; not Bearer → invalid; a 403 → the role its §7 reason names;
 * otherwise the most used token is `token` and the next one `other-token` (a second user).
 */
export function createTokenRoles(uses: ReadonlyMap<string, number>): (x: ScaffoldExchange) => TokenRole {
  const ranked = [...uses].sort((a, b) => b[1] - a[1]).map(([id]) => id)
  const other = ranked[1]
  return (x) => {
    if (!x.hasAuthorization) return 'none'
    if (x.findings.some((f) => f.rule === 'AUTH-BEARER-SENT')) return 'invalid'
    if (x.status === 403) {
      const body = x.responseJson as { reason?: unknown; delete_health?: unknown } | undefined
      if (body?.reason === 'Insufficient permission') return 'limited-token'
      if (body?.reason === 'Revoked') return String(body.delete_health) === 'true' ? 'revoked-delete-token' : 'revoked-token'
    }
    return x.tokenId !== undefined && x.tokenId === other ? 'other-token' : 'token'
  }
}
