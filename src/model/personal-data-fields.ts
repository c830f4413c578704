/**
 * Body fields that hold personal data, stated once for the proxy's `--redact-personal`
 * (proxy/recording/redaction.ts) and the reports' masking (src/execute/finalize/personal-data.ts).
 */

/** §2.3: a path point is a GPS position. */
export const PATH_POINT_PERSONAL_FIELDS: readonly string[] = ['latitude', 'longitude', 'altitude']

/** §2.6: the profile describes a person; `profile` and the pictures are absolute URLs about them. */
export const PROFILE_PERSONAL_FIELDS: readonly string[] = [
  'name',
  'location',
  'birthday',
  'profile',
  'small_picture',
  'normal_picture',
  'medium_picture',
  'large_picture',
]
