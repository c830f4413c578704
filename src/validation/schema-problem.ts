// What validating a body against a schema in schemas/api/ yields: plain, JSON-serializable data.

/**
 * One finding about a body.
 * - `error`: a present field of the wrong type or format, a missing required field, a bad value.
 * - `warning`: a field a complete representation is expected to carry (`x-expected`) is absent.
 * - `irregularity`: one of the documented §2.2 irregularities (passes unless run strictly).
 */
export interface SchemaProblem {
  severity: 'error' | 'warning' | 'irregularity'
  /** Rule id from suites/rules.yaml: the nearest `x-rule` of the schema; '' when none applies. */
  rule: string
  /** JSON pointer into the body, '' for the root; for an absent field, the object that lacks it. */
  pointer: string
  /** Plain words with the path and the actual value, e.g. `/items/3/has_map must be the text "true" or "false", found the boolean true`. */
  message: string
}
