import { createHash } from 'node:crypto'
import type { Finding } from '../../../src/model/exchange.js'
import { parseHttpDate } from '../../../src/validation/time-formats.js'
import { headerOf, type ExchangeView } from '../exchange-view.js'
import { feedRequestOf } from '../feed-request.js'
import { finding } from '../findings.js'
import { conditionalRules } from '../rules/conditional-answer.js'
import { activityIdOfUri } from './activity-ids.js'
import { BoundedMap } from './bounded-map.js'

/**
 * §4 rule 3 against what the server said earlier: a 304 means "has not changed since then", so it is
 * wrong when an earlier answer showed a change after the date asked about.
 * - an activity (read, HEAD): its Last-Modified, as the server last gave it, is later than If-Modified-Since;
 * - the whole feed of a user (read without a scope, which may leave the change out): an activity the
 *   user created through the proxy was created after it (its first Last-Modified, read before any other
 *   write to it, is when it was created, and a new activity changes the feed's size).
 * A 304 that may have been given before the change (it overlapped the answer that showed it) is not judged.
 * Edits are not taken as changes of the feed: §2.2 does not say that a field the items lack changes it.
 */
export class ConditionalHistory {
  readonly #lastModified: BoundedMap<string, Change>
  /** Activities created through the proxy whose creation time is not known yet: id → the user's key. */
  readonly #created: BoundedMap<string, string>
  /** A user's key → the latest creation known of one of their activities. */
  readonly #feedChanged: BoundedMap<string, Change>

  constructor(maxActivities: number) {
    this.#lastModified = new BoundedMap(maxActivities)
    this.#created = new BoundedMap(maxActivities)
    this.#feedChanged = new BoundedMap(maxActivities)
  }

  observe(view: ExchangeView): Finding[] {
    const { endpoint, response } = view
    if (endpoint === undefined || response === undefined) return []
    if (endpoint.row === 4 && response.status === 201) {
      const id = activityIdOfUri(headerOf(response, 'location'))
      if (id !== undefined) this.#created.set(id, userKeyOf(view))
      return []
    }
    if (endpoint.row === 2) return response.status === 304 ? this.#feedNotModified(view) : []
    const id = activityIdOfUri(view.path)
    if (id === undefined) return []
    if (response.status === 304 && (endpoint.row === 3 || endpoint.row === 9))
      return this.#activityNotModified(view, id)
    if (response.status < 200 || response.status > 299) return []
    if (endpoint.row === 8) this.#lastModified.delete(id)
    if (endpoint.row === 5 || endpoint.row === 7 || endpoint.row === 8) this.#created.delete(id)
    const lastModified = parseDate(headerOf(response, 'last-modified'))
    if (lastModified === undefined || (endpoint.row !== 3 && endpoint.row !== 7 && endpoint.row !== 9)) return []
    const change: Change = { at: lastModified, shownAt: view.clock?.end }
    this.#lastModified.set(id, change)
    const creator = this.#created.get(id)
    if (creator !== undefined && endpoint.row !== 7) {
      this.#created.delete(id)
      const known = this.#feedChanged.get(creator)
      if (known === undefined || known.at < lastModified) this.#feedChanged.set(creator, change)
    }
    return []
  }

  #activityNotModified(view: ExchangeView, id: string): Finding[] {
    const since = parseDate(headerOf(view.request, 'if-modified-since'))
    const known = this.#lastModified.get(id)
    const rule = conditionalRules(view)?.modified
    if (
      since === undefined ||
      known === undefined ||
      known.at <= since ||
      rule === undefined ||
      !answeredAfter(view, known)
    )
      return []
    const what = view.endpoint?.row === 9 ? 'a HEAD answered 304 where GET must answer 200 (RFC 9110 §9.3.2)' : '304'
    return [
      finding(
        'violation',
        'response',
        rule,
        `${what} although the activity changed after If-Modified-Since (${headerOf(view.request, 'if-modified-since') ?? ''}): an earlier answer gave Last-Modified ${new Date(known.at).toUTCString()}; §4 rule 3: "Otherwise the normal response is returned"`,
      ),
    ]
  }

  #feedNotModified(view: ExchangeView): Finding[] {
    const since = parseDate(headerOf(view.request, 'if-modified-since'))
    if (since === undefined || feedRequestOf(view.query).isScoped) return []
    const changed = this.#feedChanged.get(userKeyOf(view))
    if (changed === undefined || changed.at <= since || !answeredAfter(view, changed)) return []
    return [
      finding(
        'violation',
        'response',
        'COND-FEED-MODIFIED',
        `304 although the feed changed after If-Modified-Since (${headerOf(view.request, 'if-modified-since') ?? ''}): an activity created through the proxy has Last-Modified ${new Date(changed.at).toUTCString()}; §4 rule 3: "Otherwise the normal response is returned"`,
      ),
    ]
  }
}

/** A change the server showed: when it was made (its Last-Modified), and when the proxy had the answer that showed it. */
interface Change {
  readonly at: number
  readonly shownAt?: number
}

/**
 * Exchanges complete in the proxy in another order than the server handled them: a 304 given just
 * before a change may be recorded after a read that shows it. It was given after the change when it
 * was asked for once the answer showing the change was in (the proxy's clock), or when its own Date
 * (whole seconds) is later than the change; with neither to tell (a hand-written view), the order seen is taken.
 */
function answeredAfter(view: ExchangeView, change: Change): boolean {
  if (view.clock !== undefined && change.shownAt !== undefined && view.clock.start >= change.shownAt) return true
  const answered = view.response === undefined ? undefined : parseDate(headerOf(view.response, 'date'))
  if (answered !== undefined) return answered > change.at
  return view.clock === undefined || change.shownAt === undefined
}

function parseDate(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseHttpDate(text.trim())
}

/** Whose feed: a digest of the credentials (§5 rule 2: "A token is tied to a user"), never the token itself. */
function userKeyOf(view: ExchangeView): string {
  const credentials = view.request.headers.get('authorization')?.join('\n') ?? ''
  return createHash('sha256').update(credentials).digest('base64')
}
