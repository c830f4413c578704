/**
 * What the suite sends where the spec gives no value (§2.7: "Full sets of allowed values for type,
 * equipment, gender and athlete_type: not shown"): `${config.*}` in scenarios, overridden by `values`
 * in the config file.
 */
export const DEFAULT_CONFIG_VALUES: Readonly<Record<string, string>> = {
  activityType: 'Running',
  otherActivityType: 'Cycling',
  equipment: 'None',
  athleteType: 'Runner',
  otherAthleteType: 'Athlete',
}
