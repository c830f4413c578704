/** How the relations name an activity: the last segment of its uri, whichever of the §2.2 forms it has. */

/** `/fitnessActivities/17` and `/activities/17` (§2.2 irregularity) both name activity `17`. */
export function activityIdOfUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined
  const path = uri.split(/[?#]/, 1)[0] ?? ''
  const match = /\/(?:fitnessActivities|activities)\/([^/]+)$/.exec(path)
  return match?.[1]
}
