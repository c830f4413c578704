/** The fields of the Profile representation (§2.6), in the spec's order. */
export const PROFILE_FIELDS: readonly string[] = ['name', 'location', 'athlete_type', 'gender', 'birthday', 'elite', 'profile', 'small_picture', 'normal_picture', 'medium_picture', 'large_picture']

/**
 * The profile fields §2.6 marks editable: the only ones the suite changes, and so the only ones a
 * restore ever sets (the closed list `fitconform cleanup` rebuilds restores from).
 */
export const EDITABLE_PROFILE_FIELDS: readonly string[] = ['athlete_type']
