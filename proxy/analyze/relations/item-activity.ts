import type { Finding } from '../../../src/model/exchange.js'
import { parseHttpDate } from '../../../src/validation/time-formats.js'
import { headerOf, type BodyView, type ExchangeView, type ResponseView } from '../exchange-view.js'
import { finding } from '../findings.js'
import { feedPageOf, type FeedPageBody } from '../rules/feed-page.js'
import { TextMemo } from '../text-memo.js'
import { activityIdOfUri } from './activity-ids.js'
import { BoundedMap } from './bounded-map.js'
import { differences, sharedValuesOf, type Difference, type SharedValues } from './shared-values.js'
import { isRecord } from '../../../src/shared/is-record.js'

interface SeenItem {
  readonly values: SharedValues
  /** When the page was served (its Date), if it said. */
  readonly servedAt?: number
}

interface SeenActivity {
  readonly values: SharedValues
  readonly path: string
}

/**
 * FEED-ITEM-MATCHES-ACTIVITY on observed traffic (§2.2 item fields; §2.3 "same format as in 2.2"):
 * an item and its activity, both seen, show the same values. Each side is remembered (the most
 * recent `maxActivities`), and the later of the two is judged against the earlier. A write through
 * the proxy (edit, live update, delete) forgets the item it makes stale; an activity whose own
 * Last-Modified is not before the page was served may have changed since, and is not compared.
 */
export class ItemActivityRelation {
  readonly #items: BoundedMap<string, SeenItem>
  readonly #activities: BoundedMap<string, SeenActivity>

  constructor(maxActivities: number) {
    this.#items = new BoundedMap(maxActivities)
    this.#activities = new BoundedMap(maxActivities)
  }

  observe(view: ExchangeView): Finding[] {
    const { endpoint, response } = view
    if (endpoint === undefined || response === undefined || response.body.truncated) return []
    if (endpoint.row === 2 && response.status === 200) return this.#page(response)
    const id = activityIdOfUri(view.path)
    if (id === undefined || response.status < 200 || response.status > 299) return []
    if (endpoint.row === 3) return this.#activity(id, view.path, response)
    // An edit, a live update or a delete changes what the item showed; an edit's answer is the new activity (§4 rule 7).
    if (endpoint.row === 5 || endpoint.row === 7 || endpoint.row === 8) {
      this.#items.delete(id)
      this.#activities.delete(id)
      const body = response.body.json
      if (endpoint.row === 7 && isRecord(body))
        this.#activities.set(id, { values: sharedValuesOf(body), path: view.path })
    }
    return []
  }

  #page(response: ResponseView): Finding[] {
    const page = feedPageOf(response.body.json)
    if (page === undefined) return []
    const servedAt = dateOf(response, 'date')
    const mismatches: { index: number; id: string; path: string; difference: Difference }[] = []
    for (const { index, id, values } of pageItemsOf(response.body, page)) {
      const activity = this.#activities.get(id)
      if (activity !== undefined)
        for (const difference of differences(values, activity.values))
          mismatches.push({ index, id, path: activity.path, difference })
      this.#items.set(id, { values, servedAt })
    }
    return groupByField(mismatches).map(([first, count]) => {
      const { field, item, activity } = first.difference
      const where = `/items/${first.index}/${field === 'start_time' && !('start_time' in (page.items[first.index] as object)) ? 'startTime' : field}`
      const told = finding(
        'violation',
        'response',
        'FEED-ITEM-MATCHES-ACTIVITY',
        `${count === 1 ? 'an item' : `${count} items`} of this page show${count === 1 ? 's' : ''} ${field} unlike the activity read earlier (the first: ${where} is ${show(item)}, ${first.path} gave ${show(activity)}); §2.2 item fields are the activity's values, §2.3 gives the start time in the "same format as in 2.2"`,
        where,
      )
      return count === 1 ? told : { ...told, repeated: { count, of: page.items.length } }
    })
  }

  #activity(id: string, path: string, response: ResponseView): Finding[] {
    const values = activityValuesOf(response.body)
    if (values === undefined) return []
    this.#activities.set(id, { values, path })
    const item = this.#items.get(id)
    if (item === undefined) return []
    const lastModified = dateOf(response, 'last-modified')
    // Changed at or after the page was served (whole seconds): the item may rightly show the values before.
    if (item.servedAt !== undefined && lastModified !== undefined && lastModified >= item.servedAt) return []
    return differences(item.values, values).map(({ field, item: shown, activity }) =>
      finding(
        'violation',
        'response',
        'FEED-ITEM-MATCHES-ACTIVITY',
        `${field} is ${show(activity)}, but this activity's item on a feed page seen earlier shows ${show(shown)}; §2.2 item fields are the activity's values, §2.3 gives the start time in the "same format as in 2.2"`,
        `/${field}`,
      ),
    )
  }
}

/**
 * The shared values of an activity's body, by its text: they are a function of the text alone, and an
 * activity read again (a client going back to it) is then not parsed again, its path being most of it.
 * Bounded as the validation memo is (rules/response-body.ts).
 */
const activityValues = new TextMemo<SharedValues | null>()

function activityValuesOf(body: BodyView): SharedValues | undefined {
  const compute = (): SharedValues | null => {
    const json = body.json
    return isRecord(json) ? sharedValuesOf(json) : null
  }
  return (body.text === undefined ? compute() : activityValues.get('', body.text, compute)) ?? undefined
}

interface PageItem {
  readonly index: number
  readonly id: string
  readonly values: SharedValues
}

/** The items of a page that name an activity, by the page's text: a page read again is not walked again. */
const pageItems = new TextMemo<readonly PageItem[]>()

function pageItemsOf(body: BodyView, page: FeedPageBody): readonly PageItem[] {
  const compute = (): readonly PageItem[] => {
    const found: PageItem[] = []
    page.items.forEach((item, index) => {
      if (!isRecord(item)) return
      const id = activityIdOfUri(item.uri)
      if (id !== undefined) found.push({ index, id, values: sharedValuesOf(item) })
    })
    return found
  }
  return body.text === undefined ? compute() : pageItems.get('', body.text, compute)
}

/** The first mismatch of each field, with how many items share it. */
function groupByField<T extends { difference: Difference }>(mismatches: readonly T[]): [T, number][] {
  const groups = new Map<string, [T, number]>()
  for (const mismatch of mismatches) {
    const group = groups.get(mismatch.difference.field)
    if (group === undefined) groups.set(mismatch.difference.field, [mismatch, 1])
    else group[1] += 1
  }
  return [...groups.values()]
}

function dateOf(response: ResponseView, header: string): number | undefined {
  const text = headerOf(response, header)
  return text === undefined ? undefined : parseHttpDate(text.trim())
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value)
}
