import { evaluateExpression } from '../expression/evaluate-expression.js'
import { twoDigits } from '../validation/calendar.js'
import { FEED_PATH } from './paths.js'
import { mediaTypeOf } from './representations.js'

/** One feed read of the sweep: the feed scoped to one month (§4 rule 1). */
export interface SweepRead {
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly accept: string
}

/**
 * Where the sweep looks for activities carrying the run's marker: the feed of the run's far-past year,
 * where the suite dates everything it creates, month by month: which page a time scope returns is
 * open (§2.2), so each window is kept smaller than a page.
 */
export function markerSweepReads(farYear: number): SweepRead[] {
  return Array.from({ length: 12 }, (_, index) => {
    const month = index + 1
    const last = new Date(Date.UTC(farYear, month, 0)).getUTCDate()
    const query = { noEarlierThan: `${farYear}-${twoDigits(month)}-01`, noLaterThan: `${farYear}-${twoDigits(month)}-${twoDigits(last)}` }
    return { path: FEED_PATH, query, accept: mediaTypeOf('FitnessActivityFeed') }
  })
}

/** The activity ids a feed page lists (the last segment of each item's `uri`); undefined for a body that is no feed. */
export function activityIdsOfFeed(feed: unknown): string[] | undefined {
  const items = (feed as { items?: unknown } | undefined)?.items
  if (!Array.isArray(items)) return undefined
  return items.flatMap((item: unknown) => {
    const id = evaluateExpression('uri | lastSegment', { uri: (item as { uri?: unknown } | null)?.uri })
    return typeof id === 'string' && id !== '' ? [id] : []
  })
}
