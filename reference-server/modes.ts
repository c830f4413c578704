// Every place where the spec leaves a choice open, as one table per mode. Handlers read these
// switches instead of comparing mode names, so adding a choice is one field here plus one `if`.
import type { IdStyle } from './store/ids.js'

export type ServerMode = 'reference' | 'quirky' | 'other-choices' | 'realistic'

export const serverModes: readonly ServerMode[] = ['reference', 'quirky', 'other-choices', 'realistic']

export interface ModeBehaviour {
  /** §2.2 does not say which end of the history comes first. */
  feedOrder: 'newest-first' | 'oldest-first'
  /** Ids are opaque in URIs (§2.3 uri); the seed and created activities use this shape. */
  idStyle: IdStyle
  /** userID of the first demo user (§2.1 userID integer); the others follow. */
  userIdBase: number
  /** §7 rule 6: status codes other than 403 are not given. */
  missingAuthorizationStatus: 400 | 401
  /** Someone else's activity: hide it (404) or refuse it (403 Insufficient permission). */
  foreignActivity: 'not-found' | 'forbidden'
  /** A deleted activity: 404 like any unknown one, or 410 Gone. */
  deletedActivityStatus: 404 | 410
  /** A well-formed request whose body is wrong (§7 rule 5: "a programming error in the client"). */
  invalidBodyStatus: 400 | 422
  /** Writes must carry the representation's own media type (§1 rule 3), else 415. */
  strictContentType: boolean
  /** §4 rule 7 names only notes as editable. */
  editableActivityFields: readonly EditableActivityField[]
  /** §2.6 marks only athlete_type as editable. */
  editableProfileFields: readonly EditableProfileField[]
  /** `previous` (§2.2): `page=&pageSize=` or the reverse order plus a harmless extra parameter. */
  previousLinkStyle: 'plain' | 'reordered'
  /** A time-scoped feed with more matches than pageSize (§2.2 size note): newest or oldest page worth. */
  scopedWindow: 'newest' | 'oldest'
  /**
   * §3 and §4 rule 6 do not show how an activity becomes live or is finished: accept points on any
   * activity, or hold an activity whose path has an `end` point finished and refuse points with 409.
   */
  liveUpdates: 'any-activity' | 'until-ended'
  /** Send bodies chunked (no Content-Length) except on HEAD (§4 endpoint 9 asks for Content-Length). */
  chunked: boolean
  /** X-Request-Id, Cache-Control: private and ETag on every response. */
  extraHeaders: boolean
  /** §7 rule 5: errors other than 403 as plain text, or as RFC 9457 problem documents (machine-readable bodies "may be added later"). */
  errorBodies: 'text' | 'problem-json'
  /** The §2.2 and §7 irregularities: feed-item spellings, text delete_health, extra fields, charset. */
  quirks: boolean
  /** The seed: the small demo data (seed.ts) or years of realistic history (realistic-history.ts). */
  history: 'demo' | 'realistic'
}

export type EditableActivityField = 'notes' | 'type' | 'equipment' | 'total_climb'
export type EditableProfileField = 'athlete_type' | 'name' | 'location'

const reference: ModeBehaviour = {
  feedOrder: 'newest-first',
  idStyle: 'integer',
  userIdBase: 20001,
  missingAuthorizationStatus: 401,
  foreignActivity: 'not-found',
  deletedActivityStatus: 404,
  invalidBodyStatus: 400,
  strictContentType: true,
  editableActivityFields: ['notes'],
  editableProfileFields: ['athlete_type'],
  previousLinkStyle: 'plain',
  scopedWindow: 'newest',
  liveUpdates: 'any-activity',
  chunked: false,
  extraHeaders: false,
  errorBodies: 'text',
  quirks: false,
  history: 'demo',
}

const behaviours: Record<ServerMode, ModeBehaviour> = {
  reference,
  // Conforming, but reproduces every irregularity §2.2 and §7 report from the samples.
  quirky: { ...reference, idStyle: 'opaque', userIdBase: 4815162342, quirks: true },
  // Conforming, but takes the other branch wherever the spec is open.
  'other-choices': {
    ...reference,
    feedOrder: 'oldest-first',
    idStyle: 'uuid',
    userIdBase: 7001,
    missingAuthorizationStatus: 400,
    foreignActivity: 'forbidden',
    deletedActivityStatus: 410,
    invalidBodyStatus: 422,
    strictContentType: false,
    editableActivityFields: ['notes', 'type', 'equipment', 'total_climb'],
    editableProfileFields: ['athlete_type', 'name', 'location'],
    previousLinkStyle: 'reordered',
    scopedWindow: 'oldest',
    liveUpdates: 'until-ended',
    chunked: true,
    extraHeaders: true,
    errorBodies: 'problem-json',
  },
  // Conforming, the reference's choices, over an account that looks like years of real use.
  realistic: { ...reference, history: 'realistic' },
}

export function isServerMode(value: string): value is ServerMode {
  return (serverModes as readonly string[]).includes(value)
}

export function behaviourOf(mode: ServerMode): ModeBehaviour {
  return behaviours[mode]
}
