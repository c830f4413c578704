// The mutant catalogue: deliberately broken variants of the reference server, one rule each.
// `fitconform selftest` runs the suites against every mutant and expects the named rule (an id of
// suites/rules.yaml) to fail; a mutant nobody catches means a rule without a working check.
//
// To add a mutant: append an entry here (the name becomes a type, so a typo in a handler's
// `faults.is('…')` fails to compile), then add one `if (call.server.faults.is('…'))` where the
// behaviour lives. For a body after a HEAD, 204 or 304, set `Reply.rawAfterEnd` (see faults.ts).
// Give it a probe in test/integration/reference-server/mutant-probes.ts: the test shows the
// misbehaviour on the mutant and not on the reference server.
//
// A mutant breaks its rule and no other on purpose, but a broken rule has consequences (a missing
// Location leaves nothing to read back): "one rule" is the fault put in, not every check that fails.
// The entries are grouped by the part of the spec they break.

export interface MutantDefinition {
  /** kebab-case, stable: used on the command line (`--mutant`). */
  name: string
  /** The id in suites/rules.yaml that this mutant breaks, and only this one. */
  rule: string
  /** What the server does wrong, in one sentence. */
  description: string
  /** The mode whose data shows the fault (default reference): `realistic` for faults that live in years of history. */
  mode?: 'realistic'
}

export const mutantCatalogue = [
  // §2.2, §4 rules 1–2, §8: paging and page size
  {
    name: 'default-page-size-20',
    rule: 'FEED-DEFAULT-PAGE-SIZE',
    description: 'Without pageSize the feed pages hold 20 items instead of 25 (§4 rule 1, §8).',
  },
  {
    name: 'page-size-ignored',
    rule: 'FEED-PAGE-SIZE',
    description: 'pageSize is ignored for the items (pages of 25), though previous still carries it (§4 rule 2).',
  },
  {
    name: 'page-size-off-by-one',
    rule: 'FEED-PAGE-SIZE',
    description:
      'A given pageSize n yields pages of n + 1 items, consistently, so a walk still meets everything once (§4 rule 2).',
  },
  {
    name: 'previous-drops-page-size',
    rule: 'FEED-PREVIOUS-KEEPS-PAGE-SIZE',
    description: 'The previous link leaves out the pageSize the client gave (§4 rule 2).',
  },
  {
    name: 'previous-without-page',
    rule: 'FEED-PREVIOUS-LINK',
    description:
      'The previous link names the page with a parameter `p` instead of `page`, and the server follows `p` (§2.2).',
  },
  {
    name: 'previous-relative',
    rule: 'FEED-FIELDS',
    description:
      'The previous link is a relative URI instead of an absolute URL (§2.2 previous: string, absolute URL).',
  },
  {
    name: 'page-repeats-item',
    rule: 'FEED-WALK-COMPLETE',
    description: 'Pages after the first start one item early, so walking previous meets one activity twice (§2.2).',
  },
  {
    name: 'page-skips-item',
    rule: 'FEED-WALK-COMPLETE',
    description: 'Every page after the first starts one item late, so walking previous misses activities (§2.2).',
  },
  {
    name: 'size-counts-page',
    rule: 'FEED-SIZE-TOTAL',
    description: 'An unscoped feed gives as size the number of items on the page, not the total (§2.2 size).',
  },
  {
    name: 'scoped-previous-present',
    rule: 'FEED-SCOPED-NO-PREVIOUS',
    description:
      'A time-scoped feed carries a previous link to a next (empty) page (§2.2 previous: absent when scoped).',
  },
  {
    name: 'scoped-page-items-missing',
    rule: 'FEED-FIELDS',
    description:
      'A feed scoped by start date (noEarlierThan or noLaterThan) answers its page without items, size alone (§2.2 items: array; §4 rule 1).',
  },

  // §4 rule 1: date scopes and their boundaries
  {
    name: 'no-earlier-than-exclusive',
    rule: 'SCOPE-NO-EARLIER-THAN',
    description: 'noEarlierThan leaves out activities that start on the boundary day (§4 rule 1 "not earlier than").',
  },
  {
    name: 'no-earlier-than-ignored',
    rule: 'SCOPE-NO-EARLIER-THAN',
    description: 'noEarlierThan makes the feed scoped but restricts nothing (§4 rule 1).',
  },
  {
    name: 'no-earlier-than-on-modified-date',
    rule: 'SCOPE-NO-EARLIER-THAN',
    description: 'noEarlierThan is compared with the modification date instead of the start time (§4 rule 1).',
  },
  {
    name: 'no-later-than-exclusive',
    rule: 'SCOPE-NO-LATER-THAN',
    description: 'noLaterThan leaves out activities that start on the boundary day (§4 rule 1 "not later than").',
  },
  {
    name: 'no-later-than-ignored',
    rule: 'SCOPE-NO-LATER-THAN',
    description: 'noLaterThan makes the feed scoped but restricts nothing (§4 rule 1).',
  },
  {
    name: 'modified-no-earlier-than-ignored',
    rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
    description: 'modifiedNoEarlierThan makes the feed scoped but restricts nothing (§4 rule 1).',
  },
  {
    name: 'modified-no-earlier-than-inverted',
    rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
    description: 'modifiedNoEarlierThan is applied as an upper bound of the modification date (§4 rule 1).',
  },
  {
    name: 'modified-no-later-than-ignored',
    rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
    description: 'modifiedNoLaterThan makes the feed scoped but restricts nothing (§4 rule 1).',
  },
  {
    name: 'modified-no-later-than-inverted',
    rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
    description: 'modifiedNoLaterThan is applied as a lower bound of the modification date (§4 rule 1).',
  },

  // §4 rules 3–4: conditional reads
  {
    name: 'feed-never-304',
    rule: 'COND-FEED-NOT-MODIFIED',
    description: 'The feed ignores If-Modified-Since and always answers 200 (§4 rule 3).',
  },
  {
    name: 'feed-304-with-body',
    rule: 'COND-FEED-NOT-MODIFIED',
    description: 'The feed\'s 304 is followed on the wire by the feed body (§4 rule 3 "304 with no body").',
  },
  {
    name: 'feed-stale-304',
    rule: 'COND-FEED-MODIFIED',
    description: "The feed's change time ignores deletions, so after a delete it still answers 304 (§4 rule 3).",
  },
  {
    name: 'activity-never-304',
    rule: 'COND-ACTIVITY-NOT-MODIFIED',
    description: 'An activity ignores If-Modified-Since and always answers 200 (§4 rule 3).',
  },
  {
    name: 'activity-304-with-body',
    rule: 'COND-ACTIVITY-NOT-MODIFIED',
    description: 'An activity\'s 304 is followed on the wire by the activity body (§4 rule 3 "304 with no body").',
  },
  {
    name: 'activity-stale-304',
    rule: 'COND-ACTIVITY-MODIFIED',
    description: 'An activity answers 304 to any valid If-Modified-Since, even when it changed since (§4 rule 3).',
  },
  {
    name: 'ims-ignored-with-scope',
    rule: 'COND-WITH-SCOPE',
    description: 'If-Modified-Since is ignored (always 200) when the feed read also carries a time scope (§4 rule 4).',
  },

  // §2.3, §4 endpoints 3–4 and 7: Last-Modified and Location
  {
    name: 'no-last-modified-on-read',
    rule: 'LAST-MODIFIED-READ',
    description: 'GET of an activity answers without Last-Modified (HEAD still has it) (§2.3, §4 endpoint 3).',
  },
  {
    name: 'last-modified-not-gmt',
    rule: 'LAST-MODIFIED-READ',
    description: 'GET of an activity gives Last-Modified with "UTC" instead of an HTTP date in GMT (§2.3).',
  },
  {
    name: 'no-last-modified-on-edit',
    rule: 'LAST-MODIFIED-EDIT',
    description: 'An edit answers without Last-Modified (§2.3, §4 endpoint 7).',
  },
  {
    name: 'last-modified-iso-on-edit',
    rule: 'LAST-MODIFIED-EDIT',
    description: 'An edit gives Last-Modified as ISO 8601 text instead of an HTTP date (§2.3).',
  },
  {
    name: 'last-modified-not-advancing',
    rule: 'LAST-MODIFIED-ADVANCES',
    description:
      'An edit applies the new notes but leaves the modification time, and so Last-Modified, unchanged (§2.3).',
  },
  {
    name: 'live-update-keeps-last-modified',
    rule: 'LAST-MODIFIED-ADVANCES',
    description: 'A live update adds its points but leaves Last-Modified unchanged (§2.3, §4 rule 3).',
  },
  {
    name: 'location-absolute',
    rule: 'CREATE-LOCATION',
    description: 'Create answers with an absolute URL in Location instead of the relative URI (§4 endpoint 4).',
  },
  {
    name: 'location-missing',
    rule: 'CREATE-LOCATION',
    description: 'Create answers 201 without a Location header (§4 endpoint 4, rule 5).',
  },

  // §1 rule 3, §7: media types
  {
    name: 'user-media-type-wrong',
    rule: 'MEDIA-TYPE-RESPONSE',
    description: 'The User is served as application/json (§1 rule 3).',
  },
  {
    name: 'feed-media-type-wrong',
    rule: 'MEDIA-TYPE-RESPONSE',
    description: 'The feed is served with the FitnessActivity media type (§1 rule 3).',
  },
  {
    name: 'activity-media-type-wrong',
    rule: 'MEDIA-TYPE-RESPONSE',
    description: 'GET and HEAD of an activity give Content-Type application/json (§1 rule 3).',
  },
  {
    name: 'profile-media-type-wrong',
    rule: 'MEDIA-TYPE-RESPONSE',
    description: 'The profile edit answers with the User media type (§1 rule 3).',
  },
  {
    name: 'error-media-type-wrong',
    rule: 'ERROR-MEDIA-TYPE',
    description: 'Every 403 ErrorMessage is served as application/json (§7).',
  },

  // §4 endpoints: status codes and bodies
  {
    name: 'create-answers-200',
    rule: 'CREATE-STATUS',
    description: 'Create answers 200 instead of 201 (§4 endpoint 4).',
  },
  {
    name: 'create-with-body',
    rule: 'CREATE-NO-BODY',
    description: 'Create answers 201 with the new activity as a body (§4 endpoint 4 "no body").',
  },
  {
    name: 'live-update-answers-200',
    rule: 'LIVE-UPDATE-STATUS',
    description: 'A live update answers 200 with the activity instead of 204 (§4 endpoint 5).',
  },
  {
    name: 'live-update-204-with-body',
    rule: 'LIVE-UPDATE-STATUS',
    description: 'A live update answers 204, then writes the activity on the wire (§4 endpoint 5 "no body").',
  },
  { name: 'edit-answers-201', rule: 'EDIT-STATUS', description: 'An edit answers 201 instead of 200 (§4 endpoint 7).' },
  {
    name: 'delete-answers-200',
    rule: 'DELETE-STATUS',
    description: 'Delete answers 200 with the deleted activity instead of 204 (§4 endpoint 8).',
  },
  {
    name: 'delete-204-with-body',
    rule: 'DELETE-STATUS',
    description: 'Delete answers 204, then writes a text body on the wire (§4 endpoint 8 "no body").',
  },

  // §2: field types and links
  {
    name: 'user-body-not-json',
    rule: 'BODY-IS-JSON',
    description: 'The User body ends with a stray comma, so it is not JSON (§1 rule 2).',
  },
  {
    name: 'user-id-string',
    rule: 'USER-FIELDS',
    description: 'The User carries userID as a string (§2.1 userID: integer).',
  },
  {
    name: 'user-link-absolute',
    rule: 'USER-LINKS-RELATIVE',
    description: "The User's fitness_activities link is an absolute URL (§2.1: relative URI).",
  },
  {
    name: 'feed-item-duration-string',
    rule: 'FEED-ITEM-FIELDS',
    description: 'Feed items carry duration as a string (§2.2 duration: number).',
  },
  {
    name: 'feed-start-time-iso',
    rule: 'FEED-ITEM-START-TIME-FORMAT',
    description: "Feed items give start_time as ISO 8601 text instead of the spec's format (§2.2).",
  },
  {
    name: 'feed-has-map-boolean',
    rule: 'FEED-ITEM-HAS-MAP-TEXT',
    description: 'Feed items carry has_map as a JSON boolean (§2.2: the text "true"/"false").',
  },
  {
    name: 'feed-item-uri-absolute',
    rule: 'FEED-ITEM-URI-RELATIVE',
    description: 'Feed items carry an absolute URL as uri (§2.2: relative URI).',
  },
  {
    name: 'total-distance-string',
    rule: 'ACTIVITY-FIELDS',
    description: 'An activity carries total_distance as a string (§2.3 total_distance: number).',
  },
  {
    name: 'path-timestamp-string',
    rule: 'ACTIVITY-PATH-POINT-FIELDS',
    description: 'Path points carry timestamp as a string (§2.3 timestamp: integer).',
  },
  {
    name: 'activity-start-time-iso',
    rule: 'ACTIVITY-START-TIME-FORMAT',
    description: "An activity gives start_time as ISO 8601 text instead of the spec's format (§2.3).",
  },
  {
    name: 'has-map-boolean',
    rule: 'ACTIVITY-HAS-MAP-TEXT',
    description: 'An activity carries has_map as a JSON boolean instead of the text "true"/"false" (§2.3).',
  },
  {
    name: 'activity-uri-missing',
    rule: 'ACTIVITY-URI-ON-READ',
    description: 'An activity read carries no uri (§2.3 uri: present on read).',
  },
  {
    name: 'comments-link-absolute',
    rule: 'ACTIVITY-LINKS-RELATIVE',
    description: "An activity's comments link is an absolute URL (§2.3: relative URI).",
  },
  {
    name: 'elite-string',
    rule: 'PROFILE-FIELDS',
    description: 'The profile carries elite as the text "true"/"false" (§2.6 elite: boolean).',
  },

  // §4 rules 5–8: create, live update and edits
  {
    name: 'create-drops-notes',
    rule: 'CREATE-RECORDS',
    description: 'Create records the activity without the notes it was sent (§4 rule 5).',
  },
  {
    name: 'create-start-time-shifted',
    rule: 'CREATE-RECORDS',
    description: 'Create records the start time one hour later than sent, as if converting a time zone (§4 rule 5).',
  },
  {
    name: 'live-update-points-dropped',
    rule: 'LIVE-UPDATE-ADDS-POINTS',
    description: 'A live update answers 204 but stores none of its points (§4 rule 6).',
  },
  {
    name: 'edit-notes-ignored',
    rule: 'EDIT-APPLIED',
    description: 'An edit ignores notes: neither the response nor later reads show the new value (§4 rule 7).',
  },
  {
    name: 'edit-not-persisted',
    rule: 'EDIT-APPLIED',
    description: 'An edit returns the new notes but does not store them (§4 rule 7).',
  },
  {
    name: 'edit-applies-uri',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description: 'An edit that carries uri changes the uri the activity shows (§4 rule 7).',
  },
  {
    name: 'edit-applies-user-id',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description: 'An edit that carries userID changes the userID the activity shows (§4 rule 7).',
  },
  {
    name: 'edit-refuses-non-editable',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description: 'An edit that carries uri or userID is refused with 400 instead of ignoring them (§4 rule 7).',
  },
  {
    name: 'edit-partial-response',
    rule: 'EDIT-FULL-RESPONSE',
    description: 'An edit answers with only the fields it changed (§4 rule 7 "the updated activity").',
  },
  {
    name: 'edit-response-stale',
    rule: 'EDIT-FULL-RESPONSE',
    description: 'An edit is applied but answers with the activity as it was before the edit (§4 rule 7).',
  },
  {
    name: 'profile-edit-ignored',
    rule: 'PROFILE-EDIT-APPLIED',
    description: 'A profile edit answers 200 with the profile but does not apply athlete_type (§4 endpoint 6).',
  },
  {
    name: 'profile-edit-partial-response',
    rule: 'PROFILE-EDIT-FULL',
    description: 'A profile edit answers with only the fields it was sent (§4 rule 8 "the whole updated profile").',
  },

  // §4 endpoint 8: delete
  {
    name: 'delete-keeps-activity',
    rule: 'DELETE-REMOVES',
    description: 'Delete answers 204 but removes nothing (§4 endpoint 8).',
  },
  {
    name: 'delete-leaves-feed-item',
    rule: 'DELETE-REMOVES',
    description: 'A deleted activity is gone from reads but still listed in the feed (§4 endpoint 8).',
  },

  // §4 endpoint 9: HEAD
  {
    name: 'head-with-body',
    rule: 'HEAD-NO-BODY',
    description: 'HEAD writes the body a GET would send after the headers, straight to the socket (§4 endpoint 9).',
  },
  {
    name: 'head-no-content-type',
    rule: 'HEAD-HEADERS',
    description: 'HEAD answers without Content-Type (§4 endpoint 9).',
  },
  {
    name: 'no-last-modified-on-head',
    rule: 'HEAD-HEADERS',
    description: 'HEAD answers without Last-Modified (§4 endpoint 9, §2.3).',
  },
  {
    name: 'head-wrong-content-length',
    rule: 'HEAD-MATCHES-GET',
    description: 'HEAD announces a Content-Length ten bytes longer than the GET body (§4 endpoint 9).',
  },
  {
    name: 'head-last-modified-now',
    rule: 'HEAD-MATCHES-GET',
    description: "HEAD gives the current time as Last-Modified instead of the activity's (§4 endpoint 9).",
  },
  {
    name: 'get-last-modified-now',
    rule: 'HEAD-MATCHES-GET',
    description:
      "GET of an activity gives the current time as Last-Modified instead of the activity's; HEAD gives the activity's (§4 endpoint 9, §2.3).",
  },

  // §5, §7: authentication and the three 403s
  {
    name: 'no-token-served',
    rule: 'AUTH-REQUIRED',
    description: 'A request without Authorization is served as the first demo user (§5 rule 1).',
  },
  {
    name: 'invalid-token-served',
    rule: 'AUTH-REQUIRED',
    description: 'A bearer token the server never issued is served as the first demo user (§5 rules 1–2).',
  },
  {
    name: 'token-prefix-matched',
    rule: 'AUTH-REQUIRED',
    description:
      "A bearer token is compared by its first 14 characters only: one with a later character changed, cut or appended is served as that token's user (§5 rules 1–2).",
  },
  {
    name: 'read-other-users-activity',
    rule: 'AUTH-USER-ISOLATION',
    description: "GET and HEAD serve another user's activity (§5 rule 2).",
  },
  {
    name: 'edit-other-users-activity',
    rule: 'AUTH-USER-ISOLATION',
    description: "PUT edits another user's activity (§5 rule 2).",
  },
  {
    name: 'delete-other-users-activity',
    rule: 'AUTH-USER-ISOLATION',
    description: "DELETE removes another user's activity (§5 rule 2).",
  },
  {
    name: 'feed-lists-other-users-activities',
    rule: 'AUTH-USER-ISOLATION',
    description: "The feed lists every user's activities, not only the token's user's (§5 rule 2).",
  },
  {
    name: 'revoked-answers-401',
    rule: 'ERROR-403-REVOKED',
    description: 'A revoked token (no deletion asked) gets 401 with a text body instead of 403 Revoked (§7 rule 1).',
  },
  {
    name: 'revoked-without-delete-health',
    rule: 'ERROR-403-REVOKED',
    description: 'The 403 Revoked for a user who did not ask for deletion leaves out delete_health (§7 rule 1).',
  },
  {
    name: 'revoked-token-can-create',
    rule: 'ERROR-403-REVOKED',
    description: 'Revocation is checked on reads only: a revoked token (no deletion asked) can create (§7 rule 1).',
  },
  {
    name: 'revoked-delete-health-false',
    rule: 'ERROR-403-REVOKED-DELETE',
    description: 'The 403 Revoked for a user who asked for deletion says delete_health false (§7 rule 2).',
  },
  {
    name: 'insufficient-with-delete-health',
    rule: 'ERROR-403-INSUFFICIENT',
    description: 'The 403 Insufficient permission carries delete_health false (§7 rule 3).',
  },
  {
    name: 'limited-token-can-create',
    rule: 'ERROR-403-INSUFFICIENT',
    description: 'The missing permission is checked on reads only: the limited token can create (§7 rule 3).',
  },
  {
    name: 'reason-misspelled',
    rule: 'ERROR-FIELDS',
    description:
      'The 403 for a missing permission gives reason "Insufficient permissions" (§7: one of Revoked, Insufficient permission).',
  },

  // §7 rule 5: robustness
  {
    name: 'bad-body-500',
    rule: 'ERROR-CLIENT-NOT-5XX',
    description: 'A write whose body is not JSON is answered 500 instead of 4xx (§7 rule 5).',
  },
  {
    name: 'missing-activity-500',
    rule: 'ERROR-CLIENT-NOT-5XX',
    description: 'A request for an unknown or deleted activity is answered 500 (§7 rule 5).',
  },
  {
    name: 'bad-body-creates-activity',
    rule: 'ERROR-BAD-BODY-CREATES-NOTHING',
    description: 'A create whose body is not JSON is answered 201 and records a placeholder activity (§7 rule 5).',
  },
  {
    name: 'bad-body-refused-but-recorded',
    rule: 'ERROR-BAD-BODY-CREATES-NOTHING',
    description:
      'A create whose body is not JSON, cut off after a complete field, is answered 400 but records what was read of it (§7 rule 5).',
  },

  // §5, §7: the permission matrix (suites/permissions/permission-matrix.yaml), cells no other scenario tries
  {
    name: 'limited-token-reads-activity',
    rule: 'ERROR-403-INSUFFICIENT',
    description:
      'GET and HEAD of a single activity do not check the fitness-activities permission: the limited token reads it (§5 rule 3, §7 rule 3).',
  },
  {
    name: 'limited-token-edits-activity',
    rule: 'ERROR-403-INSUFFICIENT',
    description:
      'PUT of an activity does not check the fitness-activities permission: the limited token edits it (§5 rule 3, §7 rule 3).',
  },
  {
    name: 'limited-token-deletes-activity',
    rule: 'ERROR-403-INSUFFICIENT',
    description:
      'DELETE of an activity does not check the fitness-activities permission: the limited token deletes it (§5 rule 3, §7 rule 3).',
  },
  {
    name: 'limited-token-live-updates',
    rule: 'ERROR-403-INSUFFICIENT',
    description:
      'A live update does not check the fitness-activities permission: the limited token adds points (§5 rule 3, §7 rule 3).',
  },
  {
    name: 'revoked-token-heads-activity',
    rule: 'ERROR-403-REVOKED',
    description:
      'HEAD of an activity checks neither revocation nor owner for a revoked token (no deletion asked): it answers 200 with the headers (§7 rule 1).',
  },
  {
    name: 'revoked-delete-health-false-on-edit',
    rule: 'ERROR-403-REVOKED-DELETE',
    description:
      'The 403 Revoked that PUT of an activity gives a user who asked for deletion says delete_health false (§7 rule 2).',
  },
  {
    name: 'revoked-token-edits-profile',
    rule: 'ERROR-403-REVOKED',
    description:
      "PUT /profile does not check revocation: a revoked token (no deletion asked) edits its user's profile (§5 rule 3, §7 rule 1).",
  },
  {
    name: 'no-token-edits-profile',
    rule: 'AUTH-REQUIRED',
    description: 'PUT /profile without Authorization is served as the first demo user (§5 rule 1).',
  },
  {
    name: 'live-update-other-users-activity',
    rule: 'AUTH-USER-ISOLATION',
    description: "A live update adds points to another user's activity (§5 rule 2).",
  },
  {
    name: 'revoked-token-deletes-activity',
    rule: 'ERROR-403-REVOKED',
    description:
      'DELETE of an activity checks neither revocation nor owner for a revoked token (no deletion asked): it deletes (§7 rule 1).',
  },
  {
    name: 'revoked-delete-token-reads-activity',
    rule: 'ERROR-403-REVOKED-DELETE',
    description:
      'GET of an activity checks neither revocation nor owner for the token of a user who asked for deletion: it serves the activity (§7 rule 2).',
  },
  {
    name: 'revoked-delete-token-edits-profile',
    rule: 'ERROR-403-REVOKED-DELETE',
    description:
      'PUT /profile does not check revocation for a user who asked for deletion: it edits their profile (§7 rule 2).',
  },
  {
    name: 'no-token-live-updates',
    rule: 'AUTH-REQUIRED',
    description: 'A live update without Authorization is served as the first demo user (§5 rule 1).',
  },
  {
    name: 'invalid-token-edits-profile',
    rule: 'AUTH-REQUIRED',
    description:
      'PUT /profile with a bearer token the server never issued is served as the first demo user (§5 rules 1–2).',
  },

  // Issue 12: checks that were missing or too weak, each proven by a mutant only it kills
  {
    name: 'activity-304-only-on-exact-date',
    rule: 'COND-ACTIVITY-NOT-MODIFIED',
    description:
      'An activity answers 304 only to an If-Modified-Since equal to its Last-Modified; a later date, unchanged since, gets 200 (§4 rule 3).',
  },
  {
    name: 'feed-304-only-on-exact-date',
    rule: 'COND-FEED-NOT-MODIFIED',
    description:
      'The feed answers 304 only to an If-Modified-Since equal to its change time; a later date, unchanged since, gets 200 (§4 rule 3).',
  },
  {
    name: 'previous-drops-small-page-size',
    rule: 'FEED-PREVIOUS-KEEPS-PAGE-SIZE',
    description: 'The previous link keeps a given pageSize only when it is 3 or more (§4 rule 2).',
  },
  {
    name: 'error-message-on-401',
    rule: 'ERROR-MEDIA-TYPE',
    description:
      'A request with an unknown bearer token is answered 401 under the ErrorMessage media type, used only for 403 (§7).',
  },
  {
    name: 'error-message-on-404',
    rule: 'ERROR-MEDIA-TYPE',
    description:
      'An unknown or deleted activity is answered 404 under the ErrorMessage media type, used only for 403 (§7).',
  },
  {
    name: 'feed-item-start-time-shifted',
    rule: 'FEED-ITEM-MATCHES-ACTIVITY',
    description: "Feed items give a start time one hour later than their activity's (§2.2).",
  },
  {
    name: 'feed-item-uri-other-path',
    rule: 'FEED-ITEM-URI-RELATIVE',
    description:
      'Feed items name their activity /fitnessActivity/<id>, neither /fitnessActivities/<id> nor /activities/<id> (§2.2).',
  },
  {
    name: 'start-time-wrong-weekday',
    rule: 'ACTIVITY-START-TIME-FORMAT',
    description: "An activity's start_time names the weekday after that of its date (§2.3, §2.2 format).",
  },
  {
    name: 'previous-names-itself',
    rule: 'ACTIVITY-PREVIOUS-NEIGHBOUR',
    description:
      "An activity's previous link names the activity itself instead of the neighbouring earlier one (§2.3).",
  },
  {
    name: 'activity-user-id-differs',
    rule: 'ACTIVITY-OWNER',
    description: 'Activities carry as userID one more than the userID /user reports for their owner (§2.1, §2.3).',
  },
  {
    name: 'edit-refuses-full-representation',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description:
      'An edit that carries comments, as a full representation read back does, is refused with 400 (§4 rule 7).',
  },
  {
    name: 'modified-no-earlier-than-exclusive',
    rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
    description: 'modifiedNoEarlierThan leaves out activities last modified on the bound day (§4 rule 1).',
  },
  {
    name: 'modified-no-later-than-exclusive',
    rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
    description: 'modifiedNoLaterThan leaves out activities last modified on the bound day (§4 rule 1).',
  },
  {
    name: 'feed-empty-object-after-delete',
    rule: 'FEED-FIELDS',
    description:
      'A time-scoped feed read whose scope holds an activity the user deleted answers 200 with an empty object {}, a feed without its §2.2 fields (after §4 endpoint 8).',
  },
  {
    name: 'profile-empty-edit-partial',
    rule: 'PROFILE-EDIT-FULL',
    description:
      'A profile edit with no field to change answers without the picture URLs the other edits carry (§4 rule 8).',
  },

  // The account survey (src/spec/survey/): faults that live in existing data, shown by the realistic
  // history (years of activities, long paths, same-day and midnight starts, later edits). Only the
  // survey's read-only checks see them: the scenarios judge the activities they create.
  {
    name: 'stored-item-start-shifted',
    rule: 'FEED-ITEM-MATCHES-ACTIVITY',
    mode: 'realistic',
    description:
      'Feed items of activities the server held before the run show a start time one hour later than the activity does; items of new activities are right (§2.2, §2.3 "same format as in 2.2").',
  },
  {
    name: 'stored-activity-owner-differs',
    rule: 'ACTIVITY-OWNER',
    mode: 'realistic',
    description:
      "Activities the server held before the run carry one more than their owner's userID; new activities are right (§2.1, §2.3 userID).",
  },
  {
    name: 'other-user-shares-user-id',
    rule: 'ACTIVITY-OWNER',
    mode: 'realistic',
    description:
      "/user gives the second demo user the first one's userID, while the second user's activities carry their own (§2.1, §2.3 userID).",
  },
  {
    name: 'head-length-short-for-large-body',
    rule: 'HEAD-MATCHES-GET',
    mode: 'realistic',
    description:
      'HEAD announces a Content-Length one byte short for bodies over 64 KiB (§4 endpoint 9; RFC 9110 §9.3.2).',
  },
  {
    name: 'head-length-counts-gzip',
    rule: 'HEAD-MATCHES-GET',
    mode: 'realistic',
    description:
      'HEAD of an activity the server held before the run announces the length of its body gzipped, though the request asked for no coding (§4 endpoint 9; RFC 9110 §9.3.2).',
  },
  {
    name: 'ims-obsolete-forms-ignored',
    rule: 'COND-ACTIVITY-NOT-MODIFIED',
    mode: 'realistic',
    description:
      'An activity read ignores If-Modified-Since in the RFC 850 and asctime forms and answers 200 (§4 rule 3; RFC 9110 §5.6.7: a recipient MUST accept them).',
  },
  {
    name: 'ims-invalid-date-304',
    rule: 'COND-ACTIVITY-MODIFIED',
    mode: 'realistic',
    description:
      'An activity read answers 304 to an If-Modified-Since that is not an HTTP date instead of ignoring it (§4 rule 3; RFC 9110 §13.1.3).',
  },
  {
    name: 'head-304-when-modified',
    rule: 'COND-ACTIVITY-MODIFIED',
    mode: 'realistic',
    description:
      'HEAD of an activity answers 304 to any valid If-Modified-Since, also one earlier than its Last-Modified, where GET answers 200 (§4 rule 3).',
  },
  {
    name: 'previous-skips-same-day',
    rule: 'ACTIVITY-PREVIOUS-NEIGHBOUR',
    mode: 'realistic',
    description: 'previous skips an earlier activity that starts on the same day and names the one before it (§2.3).',
  },
  {
    name: 'modified-scope-on-creation-date',
    rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
    mode: 'realistic',
    description:
      'modifiedNoEarlierThan is compared with the day an activity was recorded, not the day it was last modified, which differ for activities edited later (§4 rule 1).',
  },
  {
    name: 'start-scope-in-other-zone',
    rule: 'SCOPE-NO-EARLIER-THAN',
    mode: 'realistic',
    description:
      'noEarlierThan judges start times three hours earlier than displayed, as if in another zone: an activity shown at 02:00:00 on the 5th counts for the 4th (§4 rule 1, §2.2).',
  },
  {
    name: 'scoped-page-ignores-page-size',
    rule: 'FEED-PAGE-SIZE',
    mode: 'realistic',
    description: 'A time-scoped feed lists every match, whatever pageSize asks (§4 rule 2).',
  },
  {
    name: 'large-page-size-capped',
    rule: 'FEED-PAGE-SIZE',
    mode: 'realistic',
    description:
      'A pageSize above 100 is cut to 100 silently, and previous still carries the value asked (§4 rule 2; §8 shows no maximum).',
  },
  {
    name: 'page-size-equal-to-size-500',
    rule: 'ERROR-CLIENT-NOT-5XX',
    mode: 'realistic',
    description: "A feed read whose pageSize equals the feed's size is answered 500 (§7 rule 5).",
  },
  // Real clients' data, repeats, after-delete and refusals: checks that judge values as sent and
  // bodies by what they are. Each triggers only on inputs today's fixed values never sent.
  {
    name: 'notes-normalized-nfc',
    rule: 'CREATE-RECORDS',
    description:
      'Create stores notes normalised to Unicode NFC, so notes sent with combining marks (NFD) come back changed (§4 rule 5).',
  },
  {
    name: 'long-notes-cut-in-pair',
    rule: 'CREATE-RECORDS',
    description:
      'Create stores notes longer than 4,096 UTF-16 units cut to 4,095, which can split a surrogate pair (§4 rule 5).',
  },
  {
    name: 'long-path-cut',
    rule: 'CREATE-RECORDS',
    description: 'Create stores only the first 1,000 points of a longer path (§4 rule 5, §2.4 path).',
  },
  {
    name: 'midnight-start-as-noon',
    rule: 'CREATE-RECORDS',
    description: 'Create stores a start time at 00:00:00 as 12:00:00, a 12-hour clock bug (§4 rule 5, §2.2 format).',
  },
  {
    name: 'edit-notes-mojibake',
    rule: 'EDIT-APPLIED',
    description:
      'An edit stores notes outside ASCII as their UTF-8 bytes read as Latin-1; create is right (§4 rule 7).',
  },
  {
    name: 'edit-empty-notes-500',
    rule: 'EDIT-APPLIED',
    description: 'An edit to notes "" is answered 500 (§2.3 notes editable, §4 rule 7).',
  },
  {
    name: 'repeated-edit-appends',
    rule: 'EDIT-APPLIED',
    description:
      'An edit that sends the notes the activity already holds stores them twice, joined by a line break (§4 rule 7).',
  },
  {
    name: 'second-delete-restores',
    rule: 'DELETE-REMOVES',
    description: 'A DELETE of an activity its owner already deleted puts it back, answered 204 (§4 endpoint 8).',
  },
  {
    name: 'deleted-accepts-edit',
    rule: 'DELETE-REMOVES',
    description:
      'PUT of an activity its owner deleted is answered 200 with the deleted activity, edited (§4 endpoints 7–8).',
  },
  {
    name: 'deleted-accepts-live-update',
    rule: 'DELETE-REMOVES',
    description: 'A live update of an activity its owner deleted is answered 204 (§4 endpoints 5 and 8).',
  },
  {
    name: 'repeated-get-moves-last-modified',
    rule: 'LAST-MODIFIED-STABLE',
    description:
      'A GET that follows another GET of the same activity moves the Last-Modified later GETs and HEADs announce to its own time, though nothing changed (§4 rule 3, §2.3).',
  },
  {
    name: 'refusal-as-activity',
    rule: 'AUTH-REQUIRED',
    description:
      'A GET of an activity without a token is refused (401) but labelled with the FitnessActivity media type, as if the message were the activity (§5 rule 1, §1 rule 3).',
  },
  {
    name: 'edit-applies-links',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description:
      'An edit that carries previous or comments with another value than the activity shows makes the activity show that link (§4 rule 7, §2.3).',
  },
  {
    name: 'edit-applies-provenance',
    rule: 'EDIT-NON-EDITABLE-IGNORED',
    description:
      'An edit that carries source or entry_mode with another value than the activity shows stores it, as if the activity had been recorded another way (§4 rule 7, §2.3, §2.2).',
  },

  // In flight together (concurrency-faults.ts): writes real clients send at once. Each makes its route
  // wait on storage, so only writes sent together meet the fault; one write at a time never does.
  {
    name: 'create-id-race',
    rule: 'CREATE-LOCATION',
    description:
      'A create reads the next id of its user and start day when it arrives and claims it only after a slow storage write, so creates in flight together for one day get one Location, the last stored replacing the others (§4 endpoint 4, rule 5).',
  },
  {
    name: 'edit-overwrites-live-update',
    rule: 'LIVE-UPDATE-ADDS-POINTS',
    description:
      'An edit reads the whole activity when it arrives and writes that copy back with the new notes after a slow storage write, so points a live update added meanwhile are lost (§4 rules 6–7).',
  },
  {
    name: 'live-updates-lost-update',
    rule: 'LIVE-UPDATE-ADDS-POINTS',
    description:
      'A live update reads the path when it arrives and stores it plus its own points after a slow storage write, so of two live updates in flight together one loses its points (§4 rule 6).',
  },
] as const satisfies readonly MutantDefinition[]

export type MutantName = (typeof mutantCatalogue)[number]['name']
