import { finding } from '../findings.js'
import type { CheckDefinition } from '../exchange-view.js'
import { feedRequestOf, type FeedRequest } from '../feed-request.js'
import type { Finding } from '../../../src/model/exchange.js'

/**
 * A feed page against the request that asked for it (§2.2, §4 rules 1–2, §8), judged where the page
 * and its request say enough on their own. What they do not say is left alone: which end of the
 * history the first page shows, the value of `page`, the size of a scoped feed, whether a page of a
 * walk that ends may be short (the last one is).
 */
export const feedPage: CheckDefinition = {
  name: 'feed-page',
  description:
    'A feed page holds the items its request asked for (pageSize, default 25), a first page of a longer feed links to the rest, a time-scoped page has no previous (§2.2, §4 rules 1–2, §8).',
  check(view) {
    if (view.endpoint?.row !== 2 || view.response?.status !== 200) return []
    const body = view.response.body
    if (body.truncated) return []
    const page = feedPageOf(body.json)
    if (page === undefined) return []
    const request = feedRequestOf(view.query)
    return [...pageSize(request, page), ...previousLink(request, page)]
  },
}

export interface FeedPageBody {
  readonly items: readonly unknown[]
  /** `size` when it is a whole number (the schema judges it otherwise). */
  readonly size?: number
  readonly previous?: unknown
}

/** The parts of a feed body these checks read; undefined when it is not a feed (the schema says why). */
export function feedPageOf(json: unknown): FeedPageBody | undefined {
  if (typeof json !== 'object' || json === null) return undefined
  const { items, size, previous } = json as Record<string, unknown>
  if (!Array.isArray(items)) return undefined
  return {
    items,
    size: Number.isSafeInteger(size) ? (size as number) : undefined,
    previous,
  }
}

function pageSize(request: FeedRequest, page: FeedPageBody): Finding[] {
  const asked = request.pageSize
  if (asked === undefined) return []
  const held = page.items.length
  const { rule, said } = asked.given
    ? {
        rule: 'FEED-PAGE-SIZE',
        said: `the request asked for pageSize=${asked.value} (§4 rule 2: "the page holds that many entries")`,
      }
    : {
        rule: 'FEED-DEFAULT-PAGE-SIZE',
        said: `the request gave no pageSize, so pages hold the default ${asked.value} (§4 rule 1, §8)`,
      }
  if (held > asked.value)
    return [finding('violation', 'response', rule, `the page holds ${held} items; ${said}`, '/items')]
  // The first page of an unscoped feed holds pageSize items, or the whole feed when it is smaller: size
  // counts the whole feed only without a scope (§2.2 says a scoped size "equals the number of items returned").
  if (request.isScoped || request.isLaterPage || page.size === undefined) return []
  const expected = Math.min(asked.value, page.size)
  if (held >= expected) return []
  return [
    finding(
      'violation',
      'response',
      rule,
      `the first page holds ${held} items while size says the feed holds ${page.size}; ${said}, so it holds ${expected}`,
      '/items',
    ),
  ]
}

function previousLink(request: FeedRequest, page: FeedPageBody): Finding[] {
  if (request.isStartScoped && page.previous !== undefined) {
    return [
      finding(
        'violation',
        'response',
        'FEED-SCOPED-NO-PREVIOUS',
        `a feed scoped by ${request.startScopes.join(' and ')} carries previous; §2.2: "Absent in a response for a time-scoped feed."`,
        '/previous',
      ),
    ]
  }
  // Only the first page of an unscoped feed is known to have a rest: a later page may be the last.
  if (
    request.isScoped ||
    request.isLaterPage ||
    page.size === undefined ||
    page.previous !== undefined ||
    page.size <= page.items.length
  )
    return []
  return [
    finding(
      'violation',
      'response',
      'FEED-PREVIOUS-LINK',
      `size says the feed holds ${page.size} activities and this first page shows ${page.items.length}, but there is no previous link to the rest (§2.2: size is "greater than the number of items when the feed spans several pages"; previous is the "Link to another page of the feed")`,
      '',
    ),
  ]
}
