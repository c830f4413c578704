/*
 * The header and field names the spec names (§2 field tables, §4 endpoint table, §5, §7). A header or
 * body field outside these lists is an extension when only one server sends it.
 */
import { ENDPOINTS } from './endpoints.js'

/** Response headers of §2.3 and §4 as the endpoint table names them, and Content-Type (§1 rule 3), lower case. */
export const SPEC_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  ...ENDPOINTS.flatMap((endpoint) => endpoint.responses.flatMap((response) => response.headers ?? [])).map((header) =>
    header.name.toLowerCase(),
  ),
])

/** HTTP's own message headers (RFC 9110, RFC 9112): they carry the exchange, not the interface; never an extension. */
export const HTTP_HEADERS: ReadonlySet<string> = new Set(['date', 'transfer-encoding', 'connection', 'keep-alive'])

/** Per-connection headers: not compared at all. */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive'])

const FIELDS = [
  // §2.1 User
  'userID',
  'profile',
  'settings',
  'fitness_activities',
  'strength_training_activities',
  'background_activities',
  'sleep',
  'nutrition',
  'weight',
  'general_measurements',
  'diabetes',
  'records',
  'team',
  // §2.2 feed and feed item (startTime: the spelling §2.2 reports as an irregularity)
  'size',
  'items',
  'previous',
  'type',
  'start_time',
  'startTime',
  'total_distance',
  'duration',
  'source',
  'entry_mode',
  'has_map',
  'uri',
  // §2.3 activity and path point
  'equipment',
  'distance',
  'heart_rate',
  'calories',
  'total_climb',
  'path',
  'notes',
  'comments',
  'nearest_teammate_strength_training_activities',
  'nearest_teammate_background_activities',
  'nearest_teammate_sleep',
  'nearest_teammate_nutrition',
  'nearest_teammate_weight',
  'nearest_teammate_general_measurements',
  'nearest_teammate_diabetes',
  'timestamp',
  'altitude',
  'longitude',
  'latitude',
  // §2.6 profile
  'name',
  'location',
  'athlete_type',
  'gender',
  'birthday',
  'elite',
  'small_picture',
  'normal_picture',
  'medium_picture',
  'large_picture',
  // §7 error message
  'reason',
  'delete_health',
]

const SPEC_FIELDS: ReadonlySet<string> = new Set(FIELDS)

/** True for a field the spec names; post_to_<network> (§2.4) stands for any network. */
export function isSpecField(name: string): boolean {
  return SPEC_FIELDS.has(name) || name.startsWith('post_to_')
}
