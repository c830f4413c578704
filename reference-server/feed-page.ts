// Which activities a feed response holds (§2.2, §4 rules 1–2, §8), kept free of HTTP so the
// paging rules read in one place.
import { isInScope, type FeedQuery } from './feed-query.js'
import type { Activity } from './model.js'
import type { ModeBehaviour } from './modes.js'

export interface FeedPage {
  items: Activity[]
  /** §2.2 size: every activity of the feed, or, for a time-scoped feed, the items returned. */
  size: number
  /** The page `previous` points to, when there is one. */
  previousPage?: number
}

/** `activities` must be oldest first (Store.activitiesOf). */
export function selectFeedPage(activities: readonly Activity[], query: FeedQuery, behaviour: ModeBehaviour): FeedPage {
  const inOrder = (list: readonly Activity[]) => (behaviour.feedOrder === 'newest-first' ? [...list].reverse() : [...list])
  const { pageSize, page, scope } = query
  if (scope) {
    // §2.2: a time-scoped feed is one page, size counts what it returns, and previous is absent.
    // `page` is ignored here. With more matches than fit, the reference keeps the newest ones.
    const matching = activities.filter((activity) => isInScope(scope, activity.startTime, activity.modifiedAt))
    const window = behaviour.scopedWindow === 'newest' ? matching.slice(Math.max(0, matching.length - pageSize)) : matching.slice(0, pageSize)
    return { items: inOrder(window), size: window.length }
  }
  const ordered = inOrder(activities)
  const start = page * pageSize
  const items = ordered.slice(start, start + pageSize)
  const hasMore = start + pageSize < ordered.length
  return hasMore ? { items, size: ordered.length, previousPage: page + 1 } : { items, size: ordered.length }
}

/**
 * §2.2 previous: an absolute URL carrying `page` and, when the client gave it, `pageSize`. Built
 * from the address and path the client used, so it leads back through the same proxy or prefix.
 */
export function previousLink(origin: string, pathname: string, page: number, query: FeedQuery, behaviour: ModeBehaviour): string {
  const parameters: [string, string][] = [['page', String(page)]]
  if (query.pageSizeGiven) parameters.push(['pageSize', String(query.pageSize)])
  // other-choices: the same link in another order, plus a parameter the server ignores, so clients
  // show that they follow the link instead of rebuilding it.
  if (behaviour.previousLinkStyle === 'reordered') parameters.reverse().push(['via', 'previous'])
  return `${origin}${pathname}?${new URLSearchParams(parameters).toString()}`
}
