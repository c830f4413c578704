import type { TokenRole } from '../model/scenario.js'

/**
 * The tokens of normal users with every permission (§5). A refusal of one of them makes every scenario
 * meaningless (the preflight), and only they create activities, so only their feeds can hold one
 * carrying the run's marker (the sweep). The revoked and limited tokens are refused on purpose: the
 * 403 rules of §7 judge that.
 */
export const FULL_ACCESS_ROLES: readonly TokenRole[] = ['token', 'other-token']
