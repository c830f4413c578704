import type { VolatileValue } from './diff-result.js'

/*
 * The one place that says which values differ between two servers by nature, and how they are
 * matched instead of compared. An activity the run created is matched by role: on each side its URI
 * becomes `<activity created by SCENARIO step N>`, so "the activity this step created" equals itself
 * across servers whatever id each server gave it. Everything else here is compared by presence or
 * by type only.
 */

export const VOLATILE_HEADERS: Readonly<Record<string, string>> = {
  date: "presence (the server's clock)",
  'last-modified': 'presence and HTTP-date form (§2.3: the time of the last change)',
  location: 'role (the activity the step created)',
  'content-length': 'presence (a length follows ids and dates)',
  etag: "presence (a server's own validator)",
  'x-request-id': "presence (a server's own request id)",
}

/** Body fields whose values depend on the account or the server, compared by JSON type only. */
export const VOLATILE_FIELDS: Readonly<Record<string, string>> = {
  userID: 'type (each server numbers its users)',
  size: "type (the number of activities in the account's own history)",
}

/** An activity's link to its neighbouring earlier activity (§2.3): not compared at all. */
export const NEIGHBOUR = 'previous'

/** An object whose `uri` names an activity the run did not create: the account's own history. */
export const FOREIGN_ACTIVITY = '<activity not created by the run>'

export const BASE_URL_ROLE = '{base_url}'

/** Everything above, as the report shows it. */
export function volatileDeclaration(): VolatileValue[] {
  return [
    ...Object.entries(VOLATILE_HEADERS).map(([name, matchedBy]): VolatileValue => ({
      name,
      where: 'header',
      matchedBy,
    })),
    ...Object.entries(VOLATILE_FIELDS).map(([name, matchedBy]): VolatileValue => ({ name, where: 'body', matchedBy })),
    {
      name: 'activity URIs and ids',
      where: 'body',
      matchedBy:
        "role: `<activity created by SCENARIO step N>`; in a feed, activities of the account's history and of other scenarios (created and deleted while the run goes on) are compared by field names and types only",
    },
    {
      name: `${NEIGHBOUR} of an activity`,
      where: 'body',
      matchedBy: 'not compared: the neighbouring earlier activity (§2.3) depends on everything else the account holds',
    },
    { name: 'the base URL in absolute links', where: 'body', matchedBy: `role: ${BASE_URL_ROLE}` },
    {
      name: 'a body over 64 KiB',
      where: 'body',
      matchedBy: 'not compared: a step records such a body cut short, so status and headers are compared, not the body',
    },
    {
      name: 'run marker, far year, dates the run sends',
      where: 'url',
      matchedBy: 'equal by construction: both sides run with the same run values',
    },
    {
      name: 'If-Modified-Since of a recording',
      where: 'header',
      matchedBy:
        "with --recording, 200 against 304 is not compared: the recorded date belongs to the recorded server's history",
    },
  ]
}

/** A created activity of one side: the label is the same on both sides, the URL is that side's. */
export interface CreatedActivity {
  readonly label: string
  readonly url: string
}

export interface RoleMap {
  /** A string with the side's base URL and activity ids replaced by their roles. */
  text(value: string): string
  /** A JSON value with every string passed through `text`. */
  json(value: unknown): unknown
}

const ACTIVITY_SEGMENT = /\/(fitnessActivities|activities)\/([^/?#\s"]+)/g

/** The roles of one side: its base URL and the activities its run created. */
/** The start of the role of every activity one scenario created. */
export function ownActivityLabel(scenario: string): string {
  return `activity created by ${scenario} step `
}

/**
 * `marker`: the run marker a replay put in the notes of what it created; taken out again, so the notes
 * compare with the recording's (a notes field that holds only the marker was not in the recording).
 */
export function createRoleMap(baseUrl: URL | string, created: readonly CreatedActivity[], marker?: string): RoleMap {
  const base = String(baseUrl).replace(/\/+$/, '')
  const byId = new Map<string, string>()
  for (const activity of created) {
    const id = activityIdOf(activity.url)
    if (id !== undefined) byId.set(id, activity.label)
  }
  const text = (value: string): string => {
    const unmarked = marker ? value.split(`${marker} `).join('') : value
    const rebased = base !== '' ? unmarked.split(base).join(BASE_URL_ROLE) : unmarked
    return rebased.replace(
      ACTIVITY_SEGMENT,
      (_whole, collection: string, id: string) =>
        `/${collection}/${byId.has(id) ? `<${byId.get(id)!}>` : FOREIGN_ACTIVITY}`,
    )
  }
  const json = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value)
    if (Array.isArray(value)) return value.map(json)
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key, inner]) => !(marker && key === 'notes' && inner === marker))
          .map(([key, inner]) => [key, json(inner)]),
      )
    return value
  }
  return { text, json }
}

/** The last path segment of an activity URL, decoded; undefined when the URL names no activity. */
export function activityIdOf(url: string): string | undefined {
  const match = /\/(?:fitnessActivities|activities)\/([^/?#\s]+)\/?(?:[?#].*)?$/.exec(url)
  return match ? match[1] : undefined
}

/** `integer`, `uuid` or `opaque`: the shape of an id, for the identifier-format open choice. */
export function idShapeOf(id: string): 'integer' | 'uuid' | 'opaque' {
  if (/^\d+$/.test(id)) return 'integer'
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return 'uuid'
  return 'opaque'
}
