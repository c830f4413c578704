/**
 * The profile fields §2.6 marks editable: the only ones the suite changes, and so the only ones a
 * restore ever sets (the closed list `fitconform cleanup` rebuilds restores from).
 */
export const EDITABLE_PROFILE_FIELDS: readonly string[] = ['athlete_type']
