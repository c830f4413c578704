import { createHash } from 'node:crypto'
import type { Finding } from '../../../src/model/exchange.js'
import type { ExchangeView } from '../exchange-view.js'
import { feedRequestOf } from '../feed-request.js'
import { finding } from '../findings.js'
import { feedPageOf } from '../rules/feed-page.js'
import { BoundedMap } from './bounded-map.js'

interface ShortPage {
  readonly held: number
  readonly asked: number
  readonly given: boolean
}

/**
 * §4 rule 2 across the pages of a walk: a page holds pageSize entries (the default 25 without one,
 * §8); only the last page of a walk may hold fewer. A page found short is remembered by the link it
 * gives to the next; when that link is read and holds items, the short page was not the last.
 * A link to an empty page (a feed whose size is a multiple of pageSize) is not judged.
 */
export class PageChain {
  readonly #shortPages: BoundedMap<string, ShortPage>

  constructor(maxPages: number) {
    this.#shortPages = new BoundedMap(maxPages)
  }

  observe(view: ExchangeView): Finding[] {
    if (view.endpoint?.row !== 2 || view.response?.status !== 200 || view.response.body.truncated) return []
    const page = feedPageOf(view.response.body.json)
    if (page === undefined) return []
    const key = (query: Iterable<readonly [string, string]>) => pageKey(view, query)
    const found: Finding[] = []
    // (No page waits for its next one most of the time: the key, a digest, is then not worth making.)
    const shortBefore = this.#shortPages.size === 0 ? undefined : this.#shortPages.get(key(view.query))
    if (shortBefore !== undefined && page.items.length > 0) {
      const { rule, asked } = shortBefore.given
        ? { rule: 'FEED-PAGE-SIZE', asked: `pageSize=${shortBefore.asked}` }
        : { rule: 'FEED-DEFAULT-PAGE-SIZE', asked: `the default page size ${shortBefore.asked} (§8)` }
      found.push(
        finding(
          'violation',
          'response',
          rule,
          `the page whose previous link led here held ${shortBefore.held} items for ${asked}, yet this page holds ${page.items.length} more: only the last page of a walk may be short (§4 rule 2: "the page holds that many entries")`,
          '/items',
        ),
      )
    }
    const pageSize = feedRequestOf(view.query).pageSize
    const next = typeof page.previous === 'string' ? queryOf(page.previous) : undefined
    if (pageSize !== undefined && next !== undefined && page.items.length < pageSize.value) {
      this.#shortPages.set(key(next), { held: page.items.length, asked: pageSize.value, given: pageSize.given })
    }
    return found
  }
}

function queryOf(link: string): URLSearchParams | undefined {
  try {
    return new URL(link).searchParams
  } catch {
    return undefined
  }
}

/** The user (a digest of the credentials) and the query, in a fixed order: the previous link may order it otherwise. */
function pageKey(view: ExchangeView, query: Iterable<readonly [string, string]>): string {
  const credentials = view.request.headers.get('authorization')?.join('\n') ?? ''
  const sorted = [...query].map(([name, value]) => `${name}=${value}`).sort()
  return createHash('sha256').update(credentials).update('\n').update(sorted.join('&')).digest('base64')
}
