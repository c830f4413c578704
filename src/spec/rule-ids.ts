/**
 * The rule ids of suites/rules.yaml that the engine judges on its own, outside any scenario file: the
 * scenario loader's media-type shorthand, the schema check, and cleanup, whose reads can disprove a
 * create or a delete. Everything else names its rules in suites/.
 */
export const RULE = {
  /** §1 rule 2: a body that is not JSON fails it, whatever the scenario expected. */
  bodyIsJson: 'BODY-IS-JSON',
  /** §1 rule 3: `expect.mediaType` of any representation but the error message. */
  mediaTypeResponse: 'MEDIA-TYPE-RESPONSE',
  /** §7: `expect.mediaType: ErrorMessage`, and no other refusal may claim that media type. */
  errorMediaType: 'ERROR-MEDIA-TYPE',
  errorFields: 'ERROR-FIELDS',
  createStatus: 'CREATE-STATUS',
  /** Cleanup: the Location is not one activity under the base URL, or names an activity the run did not create. */
  createLocation: 'CREATE-LOCATION',
  /** Cleanup: the activity created with the run's marker in its notes reads back without notes. */
  createRecords: 'CREATE-RECORDS',
  deleteStatus: 'DELETE-STATUS',
  /** Cleanup: a DELETE was accepted but a read still finds the activity. */
  deleteRemoves: 'DELETE-REMOVES',
  /** What a fuzzed step with no rule of its own is judged by: a client error must not be a 5xx. */
  errorClientNot5xx: 'ERROR-CLIENT-NOT-5XX',
} as const

/** The rule an `expect.mediaType` shorthand judges: the error message's own (§7), else §1 rule 3. */
export function mediaTypeRuleOf(representation: string): string {
  return representation === 'ErrorMessage' ? RULE.errorMediaType : RULE.mediaTypeResponse
}
