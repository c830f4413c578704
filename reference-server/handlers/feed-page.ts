// Which activities a feed response holds (§2.2, §4 rules 1–2, §8), kept free of HTTP so the
// paging rules read in one place.
import type { Faults } from '../faults/faults.js'
import { defaultPageSize, isInScope, type FeedQuery } from './feed-query.js'
import type { Activity } from '../store/model.js'
import type { ModeBehaviour } from '../modes.js'

export interface FeedPage {
  items: Activity[]
  /** §2.2 size: every activity of the feed, or, for a time-scoped feed, the items returned. */
  size: number
  /** The page `previous` points to, when there is one. */
  previousPage?: number
}

/** `activities` must be oldest first (Store.activitiesOf). */
export function selectFeedPage(
  activities: readonly Activity[],
  query: FeedQuery,
  behaviour: ModeBehaviour,
  faults: Faults,
): FeedPage {
  const inOrder = (list: readonly Activity[]) =>
    behaviour.feedOrder === 'newest-first' ? [...list].reverse() : [...list]
  const { page, scope } = query
  const pageSize = itemsPerPage(query, faults)
  if (scope) {
    // §2.2: a time-scoped feed is one page, size counts what it returns, and previous is absent.
    // `page` is ignored here. With more matches than fit, the reference keeps the newest ones.
    const matching = activities.filter((activity) =>
      isInScope(scope, activity.startTime, activity.modifiedAt, faults, activity.createdAt),
    )
    const window = faults.is('scoped-page-ignores-page-size')
      ? matching
      : behaviour.scopedWindow === 'newest'
        ? matching.slice(Math.max(0, matching.length - pageSize))
        : matching.slice(0, pageSize)
    const size = window.length
    return faults.is('scoped-previous-present')
      ? { items: inOrder(window), size, previousPage: 1 }
      : { items: inOrder(window), size }
  }
  const ordered = inOrder(activities)
  const start = firstIndexOf(page, pageSize, faults)
  const items = ordered.slice(start, start + pageSize)
  const size = faults.is('size-counts-page') ? items.length : ordered.length
  const hasMore = start + pageSize < ordered.length
  return hasMore ? { items, size, previousPage: page + 1 } : { items, size }
}

/** §4 rules 1–2: pageSize, or 25; the paging mutants count differently. */
function itemsPerPage(query: FeedQuery, faults: Faults): number {
  if (!query.pageSizeGiven) return query.pageSize
  if (faults.is('page-size-ignored')) return defaultPageSize
  if (faults.is('large-page-size-capped')) return Math.min(query.pageSize, 100)
  return faults.is('page-size-off-by-one') ? query.pageSize + 1 : query.pageSize
}

/** Where a page starts: right after the previous one, except in the walk mutants. */
function firstIndexOf(page: number, pageSize: number, faults: Faults): number {
  if (page === 0) return 0
  // Every later page starts one item early: the last item of the first page comes again.
  if (faults.is('page-repeats-item')) return page * pageSize - 1
  if (faults.is('page-skips-item')) return page * pageSize + 1
  return page * pageSize
}

/**
 * §2.2 previous: an absolute URL carrying `page` and, when the client gave it, `pageSize`. Built
 * from the address and path the client used, so it leads back through the same proxy or prefix.
 */
export function previousLink(
  origin: string,
  pathname: string,
  page: number,
  query: FeedQuery,
  behaviour: ModeBehaviour,
): string {
  const parameters: [string, string][] = [['page', String(page)]]
  if (query.pageSizeGiven) parameters.push(['pageSize', String(query.pageSize)])
  // other-choices: the same link in another order, plus a parameter the server ignores, so clients
  // show that they follow the link instead of rebuilding it.
  if (behaviour.previousLinkStyle === 'reordered') parameters.reverse().push(['via', 'previous'])
  return `${origin}${pathname}?${new URLSearchParams(parameters).toString()}`
}
