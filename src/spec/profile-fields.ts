/**
 * The fields of the Profile representation (§2.6), in the spec's order. The closed list of what a
 * profile restore may set: `fitconform cleanup` rebuilds a restore from a ledger only with these.
 */
export const PROFILE_FIELDS: readonly string[] = ['name', 'location', 'athlete_type', 'gender', 'birthday', 'elite', 'profile', 'small_picture', 'normal_picture', 'medium_picture', 'large_picture']
