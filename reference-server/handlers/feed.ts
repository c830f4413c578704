// §4 endpoint 2: GET /fitnessActivities → 200 FitnessActivityFeed (§2.2), or 304 (§4 rules 3–4).
import type { Call } from '../call.js'
import { isNotModified, lastModifiedHeader, notModifiedReply } from '../conditional.js'
import { previousLink, selectFeedPage } from '../feed-page.js'
import { parseFeedQuery } from '../feed-query.js'
import { feedItemBody } from '../representations.js'
import { jsonReply, type Reply } from '../reply.js'

export function readFeed(call: Call): Reply {
  const { store, behaviour } = call.server
  const query = parseFeedQuery(call.query)
  const owner = call.grant.user
  // One change time for the whole feed, scoped or not (§4 rule 4): any change answers 200, which
  // can cost a client a transfer but never hides a change from it.
  const changedAt = store.feedChangedAt(owner)
  if (isNotModified(call.headers['if-modified-since'], changedAt)) return notModifiedReply(changedAt)
  const page = selectFeedPage(store.activitiesOf(owner), query, behaviour)
  const body: Record<string, unknown> = { size: page.size, items: page.items.map((activity) => feedItemBody(activity, call.server)) }
  if (page.previousPage !== undefined) body.previous = previousLink(call.origin, call.pathname, page.previousPage, query, behaviour)
  // Not required by §2.2, but it is the validator a client needs for If-Modified-Since.
  return jsonReply(behaviour, 'FitnessActivityFeed', body, changedAt > 0 ? lastModifiedHeader(changedAt) : {})
}
