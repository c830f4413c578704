// The irregularities the quirky mode reproduces (§2.2 "Observed irregularities", §7 delete_health
// as text). Which item shows which irregularity depends only on a hash of its id, so the same
// activity looks the same on every read, and activities created through the API get quirks too.
import type { Activity } from '../store/model.js'
import { hashText } from '../data/prng.js'

export type JsonObject = Record<string, unknown>

/** Applies the §2.2 irregularities to a well-formed feed item (never to the activity itself). */
export function quirkFeedItem(item: JsonObject, activity: Activity): JsonObject {
  const hash = hashText(activity.id)
  const quirked: JsonObject = {}
  for (const [key, value] of Object.entries(item)) {
    if (key === 'start_time' && hash % 3 === 0) quirked.startTime = value
    else if (key === 'source' && (hash >>> 4) % 5 === 0) continue
    else if (key === 'entry_mode' && (hash >>> 8) % 5 === 0) continue
    else if (key === 'has_map' && (hash >>> 12) % 5 === 0) continue
    // /activities/<id> is only a spelling in the feed: the server does not serve that path.
    else if (key === 'uri' && (hash >>> 16) % 4 === 0) quirked.uri = `/activities/${activity.id}`
    else quirked[key] = value
  }
  return quirked
}

/** Adds unknown fields to every JSON object, nested ones included, so clients prove they ignore them. */
export function addExtraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(addExtraFields)
  if (value === null || typeof value !== 'object') return value
  const decorated: JsonObject = {}
  for (const [key, field] of Object.entries(value)) decorated[key] = addExtraFields(field)
  decorated.x_server_build = 'fitconform-quirky-1'
  decorated.x_shard = 7
  return decorated
}
