import type { AuthChoice, TokenRole } from '../../model/scenario.js'
import { PROFILE_PATH } from '../../spec/paths.js'
import { EDITABLE_PROFILE_FIELDS } from '../../spec/profile-fields.js'
import { mediaTypeOf } from '../../spec/representations.js'
import { FULL_ACCESS_ROLES } from '../../spec/token-roles.js'
import { resolveUrl } from '../http/resolve-url.js'
import { authorizationFor, type RunContext } from '../run-context.js'

/**
 * The profile as the run found it, and the promise to leave it so, for every user.
 *
 * GET /profile is not in §4's table; the one read the interface offers is an edit with no field to
 * change, which returns the whole profile (§4 endpoint 6, rule 8). Before the first profile write of
 * the run, every user's profile is read that way (an isolation bug can change one user's profile by
 * another's edit, so all of them). A write then changes only fields that profile showed: §2.6 lists
 * every field without making one required, so a field the server does not show is not edited (the
 * step is skipped with that reason). Each field's first value goes into the ledger, for every user,
 * before the write. At the end every field the run wrote is read again for every user; each that
 * differs is set back and counted ("changed 2, restored 2"), and one that cannot be is named.
 */
export interface ProfileGuard {
  /** Before a PUT /profile: undefined to send it, or why it is skipped (nothing sent). */
  beforeWrite(context: RunContext, role: AuthChoice, body: string | undefined): Promise<string | undefined>
  /** After the scenarios: sets back every field that differs, for every user; what it changed and restored. */
  restore(context: RunContext): Promise<ProfileRestoreOutcome>
}

export interface ProfileRestoreOutcome {
  readonly changed: number
  readonly restored: number
  /** One line per (user, field) that is still not as the run found it. */
  readonly notRestored: readonly string[]
}

type Snapshot = Readonly<Record<string, unknown>>

/**
 * `reader`: the context the guard reads and restores with. It is the run's own, outside the lane
 * gate of write-gate.ts: an exclusive scenario may wait for the first read while the gate holds
 * every other scenario's writes, and an edit with nothing to change changes nothing it relies on.
 */
export function createProfileGuard(reader: RunContext): ProfileGuard {
  let snapshots: Promise<Map<TokenRole, Snapshot | string>> | undefined
  /** (role, field) pairs the run saw changed, and the fields any write touched. */
  const changed = new Set<string>()
  const touched = new Set<string>()
  const written = new Set<string>()

  const takeSnapshots = (): Promise<Map<TokenRole, Snapshot | string>> =>
    (snapshots ??= (async () => {
      const read = new Map<TokenRole, Snapshot | string>()
      for (const role of FULL_ACCESS_ROLES) {
        if (authorizationFor(role, reader) === undefined) continue
        read.set(role, await readProfile(reader, role))
      }
      return read
    })())

  return {
    async beforeWrite(context, role, body) {
      const fields = fieldsOf(body)
      // An edit with nothing to change is the read of §4 rule 8; a body that is no JSON object names no field it could change knowingly.
      if (fields.length === 0 && body !== undefined && isEmptyObject(body)) return undefined
      const found = await takeSnapshots()
      if (fields.length === 0) return undefined
      const own = typeof role === 'string' ? found.get(role as TokenRole) : undefined
      if (own === undefined) return undefined // a token without full access: its edit is refused (§5 rule 3), nothing to restore
      if (typeof own === 'string')
        return `the profile could not be read before changing it (${own}), so the change could not be undone: not sent`
      const absent = fields.filter((field) => !(field in own))
      if (absent.length > 0)
        return `the server's profile does not show ${absent.join(', ')} (§2.6 lists the fields without making one required), so the suite does not edit ${absent.length === 1 ? 'it' : 'them'}: a value it did not see could not be set back`
      const unlisted = fields.filter((field) => !EDITABLE_PROFILE_FIELDS.includes(field))
      if (unlisted.length > 0)
        return `§2.6 marks only ${EDITABLE_PROFILE_FIELDS.join(', ')} editable, so the suite does not edit ${unlisted.join(', ')}: a restore sets back only editable fields`
      for (const field of fields) {
        if (written.has(field)) continue
        written.add(field)
        touched.add(field)
        for (const [user, snapshot] of found) {
          if (typeof snapshot !== 'string' && field in snapshot)
            context.ledger?.record({ type: 'profile', role: user, field, value: snapshot[field] })
        }
      }
      const sent = JSON.parse(body!) as Record<string, unknown>
      for (const field of fields) if (!sameValue(sent[field], own[field])) changed.add(`${role}\u0000${field}`)
      return undefined
    },
    async restore(context) {
      if (!snapshots || touched.size === 0) return { changed: 0, restored: 0, notRestored: [] }
      const found = await snapshots
      const notRestored: string[] = []
      for (const [role, snapshot] of found) {
        if (typeof snapshot === 'string') continue
        const fields = [...touched].filter((field) => field in snapshot)
        const now = await readProfile(context, role)
        if (typeof now === 'string') {
          for (const field of fields)
            if (changed.has(`${role}\u0000${field}`))
              notRestored.push(
                `${role}'s profile ${field}: could not be read at the end (${now}); it was ${JSON.stringify(snapshot[field])}`,
              )
          continue
        }
        const differing = fields.filter((field) => !sameValue(now[field], snapshot[field]))
        for (const field of differing) changed.add(`${role}\u0000${field}`)
        let after: Snapshot | string = now
        if (differing.length > 0)
          after = await writeProfile(
            context,
            role,
            Object.fromEntries(differing.map((field) => [field, snapshot[field]])),
          )
        for (const field of fields) {
          const back = typeof after !== 'string' && sameValue(after[field], snapshot[field])
          if (back) context.ledger?.record({ type: 'profile-restored', role, field })
          else
            notRestored.push(
              `${role}'s profile ${field} is ${typeof after === 'string' ? `unknown (${after})` : JSON.stringify(after[field])}, it was ${JSON.stringify(snapshot[field])}`,
            )
        }
      }
      return { changed: changed.size, restored: changed.size - notRestored.length, notRestored }
    },
  }
}

/** The field names of a profile edit's JSON object; none for anything else (its fields are unknown: nothing of it is edited knowingly). */
function fieldsOf(body: string | undefined): string[] {
  if (body === undefined) return []
  try {
    const parsed = JSON.parse(body) as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : []
  } catch {
    return []
  }
}

function isEmptyObject(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length === 0
  } catch {
    return false
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** The profile as an edit with no field to change returns it (§4 rule 8); a string says why there is none. */
export function readProfile(context: RunContext, role: AuthChoice): Promise<Snapshot | string> {
  return writeProfile(context, role, {})
}

/** PUT /profile with only the fields to change (§4 endpoint 6); the whole profile it returns, or why there is none. */
export async function writeProfile(
  context: RunContext,
  role: AuthChoice,
  fields: Record<string, unknown>,
): Promise<Snapshot | string> {
  const headers: Record<string, string> = {
    'content-type': mediaTypeOf('ProfileEdit'),
    accept: mediaTypeOf('Profile'),
    'accept-encoding': 'identity',
  }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    const response = await context.client.send({
      method: 'PUT',
      url: resolveUrl(PROFILE_PATH, context.baseUrl).url,
      headers,
      body: JSON.stringify(fields),
      wire: false,
    })
    if (response.status !== 200) return `PUT ${PROFILE_PATH} answered ${response.status}`
    const parsed = JSON.parse(response.body.toString('utf8')) as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Snapshot)
      : `PUT ${PROFILE_PATH} returned no JSON profile`
  } catch (error) {
    return `PUT ${PROFILE_PATH}: ${(error as Error).message}`
  }
}
