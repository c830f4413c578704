// Walks the whole feed by its previous links (§2.2), read-only and bounded: it stops at the cap and
// says so, so a survey of a huge account costs a known number of requests.
import type { SurveyExchange } from './survey-exchange.js'
import type { SurveyReader } from './survey-facts.js'
import { toSurveyItem, type SurveyItem } from './feed-items.js'
import { FEED_PATH } from '../paths.js'

export interface FeedWalk {
  readonly items: readonly SurveyItem[]
  /** §2.2 size of the first page. */
  readonly size?: number
  readonly pages: number
  /** True when the walk reached the page without a previous link. */
  readonly complete: boolean
  /** Why the walk ended early (the cap, an error answer, a link loop). */
  readonly stoppedBecause?: string
  /** The first page's exchange, for evidence. */
  readonly first?: SurveyExchange
}

export interface WalkOptions {
  readonly maxActivities: number
  /** Sent on the first request only; the links carry it on (§4 rule 2). */
  readonly pageSize?: number
}

export async function walkFeed(reader: SurveyReader, options: WalkOptions): Promise<FeedWalk> {
  const items: SurveyItem[] = []
  const seen = new Set<string>()
  let target: string | undefined = FEED_PATH
  let query: Record<string, string> = options.pageSize !== undefined ? { pageSize: String(options.pageSize) } : {}
  let pages = 0
  let size: number | undefined
  let first: SurveyExchange | undefined
  while (target !== undefined) {
    if (reader.interrupted.aborted)
      return {
        items,
        pages,
        complete: false,
        stoppedBecause: 'the run was interrupted',
        size,
        first,
      }
    const exchange = await reader.send({ method: 'GET', target, query, accept: 'FitnessActivityFeed' })
    first ??= exchange
    pages++
    const body = exchange.body as { size?: unknown; items?: unknown; previous?: unknown } | undefined
    if (exchange.status !== 200 || !body || !Array.isArray(body.items)) {
      return {
        items,
        pages,
        complete: false,
        stoppedBecause: `page ${pages} answered ${exchange.status || 'nothing'}${exchange.status === 200 ? ' without an items list' : ''}`,
        size,
        first,
      }
    }
    if (size === undefined && typeof body.size === 'number') size = body.size
    for (const raw of body.items) {
      const item = toSurveyItem(raw)
      if (item) items.push(item)
    }
    const next = typeof body.previous === 'string' ? body.previous : undefined
    if (next === undefined) return { items, pages, complete: true, size, first }
    if (seen.has(next))
      return {
        items,
        pages,
        complete: false,
        stoppedBecause: `page ${pages} links back to a page already read (${next})`,
        size,
        first,
      }
    if (items.length >= options.maxActivities) {
      return {
        items,
        pages,
        complete: false,
        stoppedBecause: `it stopped after ${items.length} activities, the cap (--survey-max-activities ${options.maxActivities})`,
        size,
        first,
      }
    }
    seen.add(next)
    target = next
    query = {}
  }
  return { items, pages, complete: true, size, first }
}
