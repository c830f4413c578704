// Stored records → JSON bodies, with the fields and order of §2.1–§2.3, §2.6 and §7.
import type { ServerContext } from '../call.js'
import { overridesOf } from '../faults/fault-state.js'
import type { Activity, Profile, User } from '../store/model.js'
import type { ModeBehaviour } from '../modes.js'
import { quirkFeedItem, type JsonObject } from './quirks.js'
import { formatSpecTime } from './spec-time.js'
import { dayNumber } from './calendar.js'

/** §2.1 userID: an integer; the mode chooses the range (modes.ts userIdBase). */
function userIdOf(user: User, behaviour: ModeBehaviour): number {
  return behaviour.userIdBase + user.index
}

/** §2.3 uri: relative, `/fitnessActivities/<id>`. */
export function activityUri(id: string): string {
  return `/fitnessActivities/${encodeURIComponent(id)}`
}

/** §2.1: every link is relative to {base_url}. */
export function userBody(user: User, behaviour: ModeBehaviour): JsonObject {
  return {
    userID: userIdOf(user, behaviour),
    profile: '/profile',
    settings: '/settings',
    fitness_activities: '/fitnessActivities',
    strength_training_activities: '/strengthTrainingActivities',
    background_activities: '/backgroundActivities',
    sleep: '/sleep',
    nutrition: '/nutrition',
    weight: '/weight',
    general_measurements: '/generalMeasurements',
    diabetes: '/diabetes',
    records: '/records',
    team: '/team',
  }
}

/** §2.2 feed item; the quirky mode then drops or respells some fields. */
export function feedItemBody(activity: Activity, server: ServerContext): JsonObject {
  const { faults } = server
  const item: JsonObject = {
    type: activity.type,
    start_time: faults.is('feed-start-time-iso')
      ? formatIsoTime(activity.startTime)
      : formatSpecTime(
          activity.startTime +
            (faults.is('feed-item-start-time-shifted') || (faults.is('stored-item-start-shifted') && activity.seeded)
              ? 3_600_000
              : 0),
        ),
    total_distance: activity.totalDistance,
    duration: faults.is('feed-item-duration-string') ? String(activity.duration) : activity.duration,
    source: activity.source,
    entry_mode: activity.entryMode,
    has_map: faults.is('feed-has-map-boolean') ? activity.path.length > 0 : hasMapText(activity),
    uri: faults.is('feed-item-uri-absolute')
      ? absoluteUri(activityUri(activity.id), server)
      : faults.is('feed-item-uri-other-path')
        ? `/fitnessActivity/${encodeURIComponent(activity.id)}`
        : activityUri(activity.id),
  }
  return server.behaviour.quirks ? quirkFeedItem(item, activity) : item
}

/** §2.3, every field; notes only when set, previous only when there is an earlier activity. */
export function activityBody(activity: Activity, server: ServerContext): JsonObject {
  const { store, behaviour, faults } = server
  const previous = faults.is('previous-skips-same-day')
    ? previousOnAnotherDay(server, activity)
    : store.previousOf(activity)
  const shown = overridesOf(activity)
  const body: JsonObject = {
    uri: shown?.uri ?? activityUri(activity.id),
    userID:
      shown?.userID ??
      userIdOf(store.user(activity.owner), behaviour) +
        (faults.is('activity-user-id-differs') || (faults.is('stored-activity-owner-differs') && activity.seeded)
          ? 1
          : 0),
    type: activity.type,
    equipment: activity.equipment,
    start_time: faults.is('activity-start-time-iso')
      ? formatIsoTime(activity.startTime)
      : faults.is('start-time-wrong-weekday')
        ? withNextWeekday(activity.startTime)
        : formatSpecTime(activity.startTime),
    total_distance: faults.is('total-distance-string') ? String(activity.totalDistance) : activity.totalDistance,
    distance: activity.distance,
    duration: activity.duration,
    heart_rate: activity.heartRate,
    calories: activity.calories,
    total_climb: activity.totalClimb,
    path: faults.is('path-timestamp-string')
      ? activity.path.map((point) => ({ ...point, timestamp: String(point.timestamp) }))
      : activity.path,
  }
  if (faults.is('activity-uri-missing')) delete body.uri
  if (activity.notes !== undefined) body.notes = activity.notes
  const comments = `${activityUri(activity.id)}/comments`
  body.comments = shown?.comments ?? (faults.is('comments-link-absolute') ? absoluteUri(comments, server) : comments)
  body.source = activity.source
  body.entry_mode = activity.entryMode
  body.has_map = faults.is('has-map-boolean') ? activity.path.length > 0 : hasMapText(activity)
  if (shown?.previous !== undefined) body.previous = shown.previous
  else if (faults.is('previous-names-itself')) body.previous = activityUri(activity.id)
  else if (previous) body.previous = activityUri(previous.id)
  // §2.3 lists these, but teams are outside this document (§2.7), so they are always empty.
  for (const dataSet of [
    'strength_training_activities',
    'background_activities',
    'sleep',
    'nutrition',
    'weight',
    'general_measurements',
    'diabetes',
  ]) {
    body[`nearest_teammate_${dataSet}`] = []
  }
  return body
}

/** §2.6, all fields. */
export function profileBody(profile: Profile): JsonObject {
  return { ...profile }
}

/**
 * §7: delete_health only with reason Revoked. It is a JSON boolean here (the field table says
 * boolean); the quirky mode carries it as the text "true"/"false" as the samples do.
 */
export function errorMessageBody(
  reason: 'Revoked' | 'Insufficient permission',
  deleteHealth: boolean | undefined,
  behaviour: ModeBehaviour,
): JsonObject {
  if (reason !== 'Revoked' || deleteHealth === undefined) return { reason }
  return { reason, delete_health: behaviour.quirks ? String(deleteHealth) : deleteHealth }
}

/** For mutants: a link made absolute with the server's own address (§2.1–§2.3 want relative ones). */
function absoluteUri(uri: string, server: ServerContext): string {
  return `${server.ownOrigin()}${server.basePath}${uri}`
}

/** For a mutant: the spec time of `time` with the weekday of the next day, `Sun, 1 Mar 1987` for a Sunday's. */
function withNextWeekday(time: number): string {
  return `${formatSpecTime(time + 86_400_000).slice(0, 3)}${formatSpecTime(time).slice(3)}`
}

/** For mutants: ISO 8601 without a zone, `1987-03-01T07:00:00`, instead of the §2.2 format. */
function formatIsoTime(time: number): string {
  return new Date(time).toISOString().slice(0, 19)
}

/** §2.2/§2.3: has_map is the text "true" or "false"; an activity has a map when it has a route. */
function hasMapText(activity: Activity): string {
  return activity.path.length > 0 ? 'true' : 'false'
}

/** For a mutant: the nearest earlier activity that starts on an earlier day. */
function previousOnAnotherDay(server: ServerContext, activity: Activity): Activity | undefined {
  let previous = server.store.previousOf(activity)
  while (previous && dayNumber(previous.startTime) === dayNumber(activity.startTime))
    previous = server.store.previousOf(previous)
  return previous
}
