// The endpoint table of §4 as data, one row per endpoint, numbered and written as the spec writes them
// (upper-case methods, `<activity_id>` paths), so that a rule's section ("§4 endpoint 3") finds its row.
// The runner's paths, the proxy's analyzer and scaffolder and the OpenAPI export all read this table;
// test/unit/spec/endpoint-table.test.ts holds it to the §4 text. Only what the spec states is here:
// success statuses, the headers it names, the query parameters of rule 1 and the conditional header
// of rule 3, with the ids of the rules (suites/rules.yaml) the proxy judges each row by.
import type { RepresentationName } from './representations.js'

/** §8: the feed's default page size, 25 entries. */
export const DEFAULT_PAGE_SIZE = 25

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD'

/** A request header or query parameter the spec names, with its type as the spec gives it. */
export interface NamedParameter {
  readonly name: string
  readonly in: 'query' | 'header'
  readonly schema: Readonly<Record<string, unknown>>
  readonly description: string
}

export interface NamedHeader {
  readonly name: string
  readonly schema: Readonly<Record<string, unknown>>
  readonly description: string
}

export interface SuccessResponse {
  readonly status: '200' | '201' | '204' | '304'
  readonly description: string
  /** The representation of the body; absent when the spec says "no body". */
  readonly body?: RepresentationName
  /** HEAD: the media type is sent in Content-Type although there is no body. */
  readonly mediaTypeOnly?: RepresentationName
  readonly headers?: readonly NamedHeader[]
}

/** One row of the §4 table as written here; `Endpoint` adds what is derived from it. */
interface EndpointRow {
  /** The row number of the §4 table. */
  readonly row: number
  /** A stable name for client generators (the spec numbers endpoints but does not name them). */
  readonly operationId: string
  readonly method: HttpMethod
  /** The path as §4 writes it, relative to {base_url}: `<activity_id>` stands for one segment. */
  readonly path: string
  readonly summary: string
  /** Writes send a body of this representation, named in Content-Type (§1 rule 3). */
  readonly requestBody?: RepresentationName
  readonly parameters?: readonly NamedParameter[]
  readonly responses: readonly SuccessResponse[]
  /** The rule that judges the success status. */
  readonly statusRule: string
  /** The rule checked against the request body, when the rule catalogue names one. */
  readonly requestBodyRule?: string
  /** The rule of the "no body" promise, for rows whose success has no body. */
  readonly noBodyRule?: string
  /** The rule requiring `Last-Modified` on a success (§2.3). */
  readonly lastModifiedRule?: string
  /** The rules of §4 rule 3, for the conditional reads (2 and 3). */
  readonly conditional?: { readonly notModified: string; readonly modified: string }
}

export interface Endpoint extends EndpointRow {
  /** Matches a concrete path relative to {base_url} (no query), made from `path`. */
  readonly pattern: RegExp
  /** Reads send Accept with this representation's media type (§4: "Reads send `Accept`"). */
  readonly accept?: RepresentationName
  /** The success statuses of the row, as numbers. */
  readonly success: readonly number[]
  /** The representation of a success body; none: the success response has no body. */
  readonly responseBody?: RepresentationName
}

const HTTP_DATE = 'an HTTP date in GMT (RFC 9110 §5.6.7)'

const LAST_MODIFIED: NamedHeader = {
  name: 'Last-Modified',
  schema: { type: 'string' },
  description: `When the activity last changed, ${HTTP_DATE} (§2.3).`,
}

const IF_MODIFIED_SINCE: NamedParameter = {
  name: 'If-Modified-Since',
  in: 'header',
  schema: { type: 'string' },
  description: `${HTTP_DATE}; when the resource has not changed since then the response is 304 with no body (§4 rules 3–4).`,
}

/** §4 rule 1; `page` is named by §2.2 (the `previous` link carries it); its values are not shown. */
const FEED_PARAMETERS: readonly NamedParameter[] = [
  {
    name: 'pageSize',
    in: 'query',
    schema: { type: 'integer', default: DEFAULT_PAGE_SIZE },
    description: 'Number of entries per page; default 25 (§4 rules 1–2; §8).',
  },
  {
    name: 'page',
    in: 'query',
    schema: { type: 'string' },
    description:
      'Which page; carried by the `previous` link (§2.2). Its values are not shown, so follow the link rather than build it.',
  },
  {
    name: 'noEarlierThan',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'Restricts the feed to entries not earlier than the date, YYYY-MM-DD (§4 rule 1).',
  },
  {
    name: 'noLaterThan',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'Restricts the feed to entries not later than the date, YYYY-MM-DD (§4 rule 1).',
  },
  {
    name: 'modifiedNoEarlierThan',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'Restricts by modification date, lower bound, YYYY-MM-DD (§4 rule 1).',
  },
  {
    name: 'modifiedNoLaterThan',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'Restricts by modification date, upper bound, YYYY-MM-DD (§4 rule 1).',
  },
  IF_MODIFIED_SINCE,
]

const NOT_MODIFIED: SuccessResponse = {
  status: '304',
  description: 'Not modified since If-Modified-Since: no body (§4 rule 3).',
}

/** The path of one activity, as §4 writes it. */
export const ACTIVITY_PATH = '/fitnessActivities/<activity_id>'

/** The nine rows of the §4 table. */
const ROWS: readonly EndpointRow[] = [
  {
    row: 1,
    operationId: 'readUser',
    method: 'GET',
    path: '/user',
    summary: "Read the user's entry-point record",
    responses: [{ status: '200', description: 'The User (§4 endpoint 1).', body: 'User' }],
    statusRule: 'USER-READ',
  },
  {
    row: 2,
    operationId: 'readFeed',
    method: 'GET',
    path: '/fitnessActivities',
    summary: 'Read a page of the activity feed',
    parameters: FEED_PARAMETERS,
    responses: [
      { status: '200', description: 'A page of the activity feed (§4 endpoint 2).', body: 'FitnessActivityFeed' },
      NOT_MODIFIED,
    ],
    statusRule: 'FEED-READ',
    conditional: { notModified: 'COND-FEED-NOT-MODIFIED', modified: 'COND-FEED-MODIFIED' },
  },
  {
    row: 3,
    operationId: 'readActivity',
    method: 'GET',
    path: ACTIVITY_PATH,
    summary: 'Read one activity',
    parameters: [IF_MODIFIED_SINCE],
    responses: [
      {
        status: '200',
        description: 'The activity, with Last-Modified (§4 endpoint 3).',
        body: 'FitnessActivity',
        headers: [LAST_MODIFIED],
      },
      NOT_MODIFIED,
    ],
    statusRule: 'ACTIVITY-READ',
    lastModifiedRule: 'LAST-MODIFIED-READ',
    conditional: { notModified: 'COND-ACTIVITY-NOT-MODIFIED', modified: 'COND-ACTIVITY-MODIFIED' },
  },
  {
    row: 4,
    operationId: 'createActivity',
    method: 'POST',
    path: '/fitnessActivities',
    summary: 'Record a finished activity or begin a live one',
    requestBody: 'NewFitnessActivity',
    responses: [
      {
        status: '201',
        description: 'Created: no body; Location holds the relative URI of the new activity (§4 endpoint 4; rule 5).',
        headers: [
          {
            name: 'Location',
            schema: { type: 'string', format: 'uri-reference' },
            description: 'The relative URI of the new activity (§4 endpoint 4).',
          },
        ],
      },
    ],
    statusRule: 'CREATE-STATUS',
    requestBodyRule: 'NEW-ACTIVITY-BODY',
    noBodyRule: 'CREATE-NO-BODY',
  },
  {
    row: 5,
    operationId: 'updateLiveActivity',
    method: 'POST',
    path: ACTIVITY_PATH,
    summary: 'Add path points to a live activity, or finish it',
    requestBody: 'LiveFitnessActivityUpdate',
    responses: [
      { status: '204', description: 'No body (§4 endpoint 5). How finishing is signalled is not shown (§4 rule 6).' },
    ],
    statusRule: 'LIVE-UPDATE-STATUS',
    requestBodyRule: 'LIVE-UPDATE-BODY',
    noBodyRule: 'LIVE-UPDATE-STATUS',
  },
  {
    row: 6,
    operationId: 'editProfile',
    method: 'PUT',
    path: '/profile',
    summary: 'Edit the profile with only the fields to change',
    requestBody: 'ProfileEdit',
    responses: [{ status: '200', description: 'The whole updated profile (§4 endpoint 6; rule 8).', body: 'Profile' }],
    statusRule: 'PROFILE-EDIT-FULL',
  },
  {
    row: 7,
    operationId: 'editActivity',
    method: 'PUT',
    path: ACTIVITY_PATH,
    summary: 'Edit an activity with only the fields to change',
    requestBody: 'FitnessActivityEdit',
    responses: [
      {
        status: '200',
        description: 'The whole updated activity, with Last-Modified (§4 endpoint 7; rule 7).',
        body: 'FitnessActivity',
        headers: [LAST_MODIFIED],
      },
    ],
    statusRule: 'EDIT-STATUS',
    lastModifiedRule: 'LAST-MODIFIED-EDIT',
  },
  {
    row: 8,
    operationId: 'deleteActivity',
    method: 'DELETE',
    path: ACTIVITY_PATH,
    summary: 'Delete an activity',
    responses: [{ status: '204', description: 'No body (§4 endpoint 8).' }],
    statusRule: 'DELETE-STATUS',
    noBodyRule: 'DELETE-STATUS',
  },
  {
    row: 9,
    operationId: 'readActivityHeaders',
    method: 'HEAD',
    path: ACTIVITY_PATH,
    summary: "An activity's headers only",
    responses: [
      {
        status: '200',
        description: 'Headers only: Content-Type, Content-Length, Last-Modified (§4 endpoint 9).',
        mediaTypeOnly: 'FitnessActivity',
        headers: [
          {
            name: 'Content-Length',
            schema: { type: 'integer', minimum: 0 },
            description: 'Length of the body a GET would carry (§4 endpoint 9).',
          },
          LAST_MODIFIED,
        ],
      },
    ],
    statusRule: 'HEAD-HEADERS',
    noBodyRule: 'HEAD-NO-BODY',
    lastModifiedRule: 'HEAD-HEADERS',
  },
]

/** A `<name>` segment of a §4 path: one non-empty path segment. */
const PATH_PARAMETER = /<([a-z_]+)>/g

/** The nine rows of the §4 table, each with the views its readers need. */
export const ENDPOINTS: readonly Endpoint[] = ROWS.map((row) => {
  const [normal] = row.responses
  const isRead = row.method === 'GET' || row.method === 'HEAD'
  return {
    ...row,
    pattern: new RegExp(`^${row.path.replace(PATH_PARAMETER, '[^/?#]+')}$`),
    accept: isRead ? (normal?.body ?? normal?.mediaTypeOnly) : undefined,
    success: row.responses.map((response) => Number(response.status)),
    responseBody: normal?.body,
  }
})

/** The row numbered `row` in §4. */
export function endpointAt(row: number): Endpoint {
  const endpoint = ENDPOINTS.find((candidate) => candidate.row === row)
  if (endpoint === undefined) throw new Error(`§4 has no endpoint ${row}`)
  return endpoint
}

/** The path in OpenAPI's template form: `/fitnessActivities/{activity_id}`. */
export function openApiPath(path: string): string {
  return path.replace(PATH_PARAMETER, '{$1}')
}

/** The §4 row for a method and a path relative to {base_url} (no query), if any. */
export function matchEndpoint(method: string, path: string): Endpoint | undefined {
  const upper = method.toUpperCase()
  return ENDPOINTS.find((endpoint) => endpoint.method === upper && endpoint.pattern.test(path))
}

/** The methods §4 lists for a path, to explain an unknown endpoint. */
export function methodsForPath(path: string): string[] {
  return [...new Set(ENDPOINTS.filter((endpoint) => endpoint.pattern.test(path)).map((endpoint) => endpoint.method))]
}

/**
 * The endpoints each numbered rule of §4 speaks of, in the spec's own words: "Feed reads (2)", "a read
 * (2 or 3)", "Create (4)", "Update (5)", "Edit (7)", "Edit (6)".
 */
export const ENDPOINTS_OF_SECTION_4_RULE: Readonly<Record<number, readonly number[]>> = {
  1: [2],
  2: [2],
  3: [2, 3],
  4: [2, 3],
  5: [4],
  6: [5],
  7: [7],
  8: [6],
}
