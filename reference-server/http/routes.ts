// The paths of §4 and the methods each one serves. HEAD is served wherever GET is (RFC 9110
// §9.3.2), which includes §4 endpoint 9.
import type { DataSet } from './auth.js'
import type { Handler } from '../call.js'
import { createActivity } from '../handlers/activity-create.js'
import { deleteActivity } from '../handlers/activity-delete.js'
import { editActivity } from '../handlers/activity-edit.js'
import { updateLiveActivity } from '../handlers/activity-live-update.js'
import { readActivity } from '../handlers/activity-read.js'
import { readFeed } from '../handlers/feed.js'
import { editProfile, readProfile } from '../handlers/profile.js'
import { readUser } from '../handlers/user.js'

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Route {
  readonly pattern: RegExp
  /** The permission the route needs (§5 rule 3, §7 rule 3). */
  readonly dataSet: DataSet
  readonly handlers: Partial<Record<RouteMethod, Handler>>
}

export interface RouteMatch {
  route: Route
  activityId?: string
}

const routes: readonly Route[] = [
  { pattern: /^\/user$/, dataSet: 'user', handlers: { GET: readUser } },
  { pattern: /^\/profile$/, dataSet: 'profile', handlers: { GET: readProfile, PUT: editProfile } },
  {
    pattern: /^\/fitnessActivities$/,
    dataSet: 'fitness-activities',
    handlers: { GET: readFeed, POST: createActivity },
  },
  {
    pattern: /^\/fitnessActivities\/([^/]+)$/,
    dataSet: 'fitness-activities',
    handlers: { GET: readActivity, POST: updateLiveActivity, PUT: editActivity, DELETE: deleteActivity },
  },
]

export function matchRoute(pathname: string): RouteMatch | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(pathname)
    if (!match) continue
    const segment = match[1]
    return segment === undefined ? { route } : { route, activityId: decodeSegment(segment) }
  }
  return undefined
}

/** The handler for a method; HEAD uses GET's. */
export function handlerFor(route: Route, method: string): Handler | undefined {
  const served = method === 'HEAD' ? 'GET' : method
  return Object.hasOwn(route.handlers, served) ? route.handlers[served as RouteMethod] : undefined
}

/** The Allow header value of a 405 (RFC 9110 §15.5.6). */
export function allowedMethods(route: Route): string {
  const methods: string[] = Object.keys(route.handlers)
  if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD')
  return methods.join(', ')
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment // malformed escapes: no activity has such an id, so the lookup answers 404
  }
}
