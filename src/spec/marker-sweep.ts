import { evaluateExpression } from '../expression/evaluate-expression.js'
import { twoDigits } from '../validation/calendar.js'
import { DEFAULT_PAGE_SIZE } from './endpoints.js'
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
    const query = {
      noEarlierThan: `${farYear}-${twoDigits(month)}-01`,
      noLaterThan: `${farYear}-${twoDigits(month)}-${twoDigits(last)}`,
    }
    return { path: FEED_PATH, query, accept: mediaTypeOf('FitnessActivityFeed') }
  })
}

/**
 * The same month read day by day. A month whose page may not hold all it matched (a run that could not
 * delete what it made) is looked at again in windows no run fills: a scoped page holds at most a page
 * of items (§4 rule 2) and its size may count only what it returns (§2.2), so a full page is a sign.
 */
export function daySweepReads(month: SweepRead): SweepRead[] {
  const [year, monthNumber] = month.query['noEarlierThan']!.split('-').map(Number) as [number, number]
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()
  return Array.from({ length: last }, (_, index) => {
    const day = `${year}-${twoDigits(monthNumber)}-${twoDigits(index + 1)}`
    return { ...month, query: { noEarlierThan: day, noLaterThan: day } }
  })
}

/** Whether a scoped page may have left items out: it is full (§8 default page size), or lists fewer than its `size` (§2.2). */
export function mayHoldMore(feed: unknown): boolean {
  const { size, items } = (feed ?? {}) as { size?: unknown; items?: unknown }
  if (!Array.isArray(items)) return false
  return items.length >= DEFAULT_PAGE_SIZE || (typeof size === 'number' && items.length < size)
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
