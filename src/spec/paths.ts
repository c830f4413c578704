/**
 * The URL shapes of §4: the entry point, the activity feed, one activity (`<feed>/<activity_id>`) and the profile, under
 * the base URL's path prefix, read from the endpoint table. Every write goes only to these (execute/safety/ownership-gate.ts).
 */
import { endpointAt } from './endpoints.js'

/** §4 endpoint 1: the user's entry point, read first by the preflight. */
export const ENTRY_POINT_PATH = endpointAt(1).path
/** §4 endpoints 2 and 4. */
export const FEED_PATH = endpointAt(2).path
/** §4 endpoint 6. */
export const PROFILE_PATH = endpointAt(6).path
/** One activity, as messages name it. */
export const ACTIVITY_PATH_SHAPE = `${FEED_PATH}/<id>`

/** One non-empty segment after the feed's path: the path of §4 endpoints 3, 5, 7, 8 and 9. */
const ONE_ACTIVITY = endpointAt(3).pattern

/** §4 endpoint 3: the path of the activity with this id. */
export function activityPath(id: string): string {
  return `${FEED_PATH}/${encodeURIComponent(id)}`
}

/** The activity's canonical URL (no query, no fragment) when `url` names one activity under the base URL. */
export function activityUrlUnder(url: string, base: URL): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (parsed.origin !== base.origin) return undefined
  const prefix = base.pathname.replace(/\/+$/, '')
  if (!parsed.pathname.startsWith(`${prefix}/`) || !ONE_ACTIVITY.test(parsed.pathname.slice(prefix.length)))
    return undefined
  return `${base.origin}${parsed.pathname}`
}

/** True when `url` is the profile under the base URL: the one other thing a restore may write. */
export function isProfileUrlUnder(url: string, base: URL): boolean {
  return isPathUnder(url, base, PROFILE_PATH)
}

/** True when `url` is the activity feed under the base URL (any query): the one place a create goes. */
export function isFeedUrlUnder(url: string, base: URL): boolean {
  return isPathUnder(url, base, FEED_PATH)
}

function isPathUnder(url: string, base: URL, path: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.origin === base.origin && parsed.pathname === `${base.pathname.replace(/\/+$/, '')}${path}`
  } catch {
    return false
  }
}
