// §4 endpoint 2: GET /fitnessActivities → 200 FitnessActivityFeed (§2.2), or 304 (§4 rules 3–4).
import type { Call } from '../call.js'
import { isNotModified, lastModifiedHeader, notModifiedReply } from '../http/conditional.js'
import { parseHttpDate, wholeSeconds } from '../http/http-date.js'
import { previousLink, selectFeedPage } from './feed-page.js'
import { isInScope, parseFeedQuery, type FeedQuery } from './feed-query.js'
import { contentTypeOf } from '../http/media-types.js'
import { feedItemBody } from '../representations/representations.js'
import { jsonReply, textReply, type Reply } from '../http/reply.js'

export function readFeed(call: Call): Reply {
  const { store, behaviour, faults } = call.server
  const query = parseFeedQuery(call.query)
  if (faults.is('default-page-size-20') && !query.pageSizeGiven) query.pageSize = 20
  if (faults.is('previous-without-page')) query.page = Number(call.query.get('p') ?? 0) || 0
  const owner = call.grant.user
  // One change time for the whole feed, scoped or not (§4 rule 4): any change answers 200, which
  // can cost a client a transfer but never hides a change from it.
  const changedAt = faults.is('feed-stale-304') ? store.latestActivityChange(owner) : store.feedChangedAt(owner)
  const activities = faults.is('feed-lists-other-users-activities') ? store.allActivities() : store.activitiesOf(owner)
  if (faults.is('page-size-equal-to-size-500') && query.pageSizeGiven && query.pageSize === activities.length)
    return textReply(500, 'internal error')
  const page = selectFeedPage(activities, query, behaviour, faults)
  const body: Record<string, unknown> = {
    size: page.size,
    items: page.items.map((activity) => feedItemBody(activity, call.server)),
  }
  if (page.previousPage !== undefined) body.previous = previousOf(call, page.previousPage, query)
  if (faults.is('scoped-page-items-missing') && isStartScoped(query)) delete body.items
  // Not required by §2.2, but it is the validator a client needs for If-Modified-Since.
  const reply = jsonReply(behaviour, 'FitnessActivityFeed', body, changedAt > 0 ? lastModifiedHeader(changedAt) : {})
  if (faults.is('feed-empty-object-after-delete') && deletedInScope(call, query))
    return jsonReply(behaviour, 'FitnessActivityFeed', {})
  if (isConditional(call, query) && isNotModifiedFor(call, changedAt)) {
    const notModified = notModifiedReply(changedAt)
    return faults.is('feed-304-with-body') && reply.body ? { ...notModified, rawAfterEnd: reply.body } : notModified
  }
  if (faults.is('feed-media-type-wrong')) reply.headers['Content-Type'] = contentTypeOf('FitnessActivity', behaviour)
  return reply
}

/** For a mutant: the feed is scoped by start date (noEarlierThan or noLaterThan). */
function isStartScoped(query: FeedQuery): boolean {
  return query.scope?.startFrom !== undefined || query.scope?.startTo !== undefined
}

/** For a mutant: the scope covers an activity the user deleted. */
function deletedInScope(call: Call, query: FeedQuery): boolean {
  const { store, faults } = call.server
  const scope = query.scope
  return (
    scope !== undefined &&
    store
      .deletedActivitiesOf(call.grant.user)
      .some((activity) => isInScope(scope, activity.startTime, activity.modifiedAt, faults))
  )
}

function isNotModifiedFor(call: Call, changedAt: number): boolean {
  const header = call.headers['if-modified-since']
  if (call.server.faults.is('feed-304-only-on-exact-date'))
    return header !== undefined && parseHttpDate(header) === wholeSeconds(changedAt)
  return isNotModified(header, changedAt)
}

function isConditional(call: Call, query: FeedQuery): boolean {
  const { faults } = call.server
  if (faults.is('feed-never-304')) return false
  return !(query.scope && faults.is('ims-ignored-with-scope'))
}

/** §2.2 previous, or one of the mutants' broken versions of it. */
function previousOf(call: Call, page: number, query: FeedQuery): string {
  const { faults, behaviour } = call.server
  const drops =
    faults.is('previous-drops-page-size') || (faults.is('previous-drops-small-page-size') && query.pageSize < 3)
  const kept = drops ? { ...query, pageSizeGiven: false } : query
  const text = previousLink(call.origin, call.pathname, page, kept, behaviour)
  if (!faults.is('previous-without-page') && !faults.is('previous-relative')) return text
  const link = new URL(text)
  if (faults.is('previous-without-page')) {
    link.searchParams.delete('page')
    link.searchParams.set('p', String(page))
  }
  return faults.is('previous-relative') ? `${link.pathname}${link.search}` : link.toString()
}
