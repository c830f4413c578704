/**
 * The URL shapes of §4: the entry point, the activity feed, one activity (`<feed>/<activity_id>`) and the profile, under
 * the base URL's path prefix. Every write goes only to these (execute/safety/ownership-gate.ts).
 */

/** §4 endpoint 1: the user's entry point, read first by the preflight. */
export const ENTRY_POINT_PATH = '/user'
/** §4 endpoints 2 and 4. */
export const FEED_PATH = '/fitnessActivities'
/** §4 endpoint 6. */
export const PROFILE_PATH = '/profile'
/** One activity, as messages name it. */
export const ACTIVITY_PATH_SHAPE = `${FEED_PATH}/<id>`

/** One non-empty segment after the feed's path. */
const ONE_ACTIVITY = new RegExp(`^${FEED_PATH}/([^/]+)$`)

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
  const match = ONE_ACTIVITY.exec(parsed.pathname.slice(prefix.length))
  if (!parsed.pathname.startsWith(`${prefix}/`) || !match) return undefined
  return `${base.origin}${prefix}${FEED_PATH}/${match[1]}`
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
