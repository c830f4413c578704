/**
 * The endpoint table of §4, and how a request is matched to a row of it (method + path pattern,
 * after the target's base path was stripped: §1 rule 5).
 */
import type { EndpointRef } from '../../src/model/exchange.js'
import type { RepresentationName } from '../../src/spec/representations.js'

export interface EndpointDefinition extends EndpointRef {
  readonly pattern: RegExp
  /** Reads send Accept with this representation's media type (§1 rule 3; §4). */
  readonly accept?: RepresentationName
  /** Writes send a body of this representation, named in Content-Type (§1 rule 3). */
  readonly requestBody?: RepresentationName
  /** Rule id checked against the request body, when the rule catalogue names one. */
  readonly requestBodyRule?: string
  /** The success statuses of §4's table. */
  readonly success: readonly number[]
  readonly statusRule: string
  /** The representation of a success body; none: the success response has no body. */
  readonly responseBody?: RepresentationName
  /** Rule of the "no body" promise, for rows whose success has no body. */
  readonly noBodyRule?: string
  /** Rule requiring `Last-Modified` on a success (§2.3). */
  readonly lastModifiedRule?: string
  /** Rules of §4 rule 3 for the conditional read rows (2 and 3). */
  readonly conditional?: { readonly notModified: string; readonly modified: string }
}

const ID = '[^/?#]+'

const ENDPOINTS: readonly EndpointDefinition[] = [
  {
    row: 1,
    method: 'GET',
    path: '/user',
    pattern: /^\/user$/,
    accept: 'User',
    success: [200],
    statusRule: 'USER-READ',
    responseBody: 'User',
  },
  {
    row: 2,
    method: 'GET',
    path: '/fitnessActivities',
    pattern: /^\/fitnessActivities$/,
    accept: 'FitnessActivityFeed',
    success: [200, 304],
    statusRule: 'FEED-READ',
    responseBody: 'FitnessActivityFeed',
    conditional: { notModified: 'COND-FEED-NOT-MODIFIED', modified: 'COND-FEED-MODIFIED' },
  },
  {
    row: 3,
    method: 'GET',
    path: '/fitnessActivities/<activity_id>',
    pattern: new RegExp(`^/fitnessActivities/${ID}$`),
    accept: 'FitnessActivity',
    success: [200, 304],
    statusRule: 'ACTIVITY-READ',
    responseBody: 'FitnessActivity',
    lastModifiedRule: 'LAST-MODIFIED-READ',
    conditional: { notModified: 'COND-ACTIVITY-NOT-MODIFIED', modified: 'COND-ACTIVITY-MODIFIED' },
  },
  {
    row: 4,
    method: 'POST',
    path: '/fitnessActivities',
    pattern: /^\/fitnessActivities$/,
    requestBody: 'NewFitnessActivity',
    requestBodyRule: 'NEW-ACTIVITY-BODY',
    success: [201],
    statusRule: 'CREATE-STATUS',
    noBodyRule: 'CREATE-NO-BODY',
  },
  {
    row: 5,
    method: 'POST',
    path: '/fitnessActivities/<activity_id>',
    pattern: new RegExp(`^/fitnessActivities/${ID}$`),
    requestBody: 'LiveFitnessActivityUpdate',
    requestBodyRule: 'LIVE-UPDATE-BODY',
    success: [204],
    statusRule: 'LIVE-UPDATE-STATUS',
    noBodyRule: 'LIVE-UPDATE-STATUS',
  },
  {
    row: 6,
    method: 'PUT',
    path: '/profile',
    pattern: /^\/profile$/,
    requestBody: 'ProfileEdit',
    success: [200],
    statusRule: 'PROFILE-EDIT-FULL',
    responseBody: 'Profile',
  },
  {
    row: 7,
    method: 'PUT',
    path: '/fitnessActivities/<activity_id>',
    pattern: new RegExp(`^/fitnessActivities/${ID}$`),
    requestBody: 'FitnessActivityEdit',
    success: [200],
    statusRule: 'EDIT-STATUS',
    responseBody: 'FitnessActivity',
    lastModifiedRule: 'LAST-MODIFIED-EDIT',
  },
  {
    row: 8,
    method: 'DELETE',
    path: '/fitnessActivities/<activity_id>',
    pattern: new RegExp(`^/fitnessActivities/${ID}$`),
    success: [204],
    statusRule: 'DELETE-STATUS',
    noBodyRule: 'DELETE-STATUS',
  },
  {
    row: 9,
    method: 'HEAD',
    path: '/fitnessActivities/<activity_id>',
    pattern: new RegExp(`^/fitnessActivities/${ID}$`),
    accept: 'FitnessActivity',
    success: [200],
    statusRule: 'HEAD-HEADERS',
    noBodyRule: 'HEAD-NO-BODY',
    lastModifiedRule: 'HEAD-HEADERS',
  },
]

/** The §4 row for a method and a path relative to {base_url} (no query), if any. */
export function matchEndpoint(method: string, path: string): EndpointDefinition | undefined {
  const upper = method.toUpperCase()
  return ENDPOINTS.find((endpoint) => endpoint.method === upper && endpoint.pattern.test(path))
}

/** The methods §4 lists for a path, to explain an unknown endpoint. */
export function methodsForPath(path: string): string[] {
  return [...new Set(ENDPOINTS.filter((endpoint) => endpoint.pattern.test(path)).map((endpoint) => endpoint.method))]
}
