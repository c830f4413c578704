// The endpoint table of §4 as data, numbered as the spec numbers them, so that a rule's section
// ("§4 endpoint 3") finds its operation. Only what the spec states is here: success statuses, the
// headers it names, the query parameters of rule 1 and the conditional header of rule 3.
import type { RepresentationName } from './representations.js'

/** §8: the feed's default page size, 25 entries. */
export const DEFAULT_PAGE_SIZE = 25

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'head'

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

export interface Endpoint {
  /** The row number of the §4 table. */
  readonly number: number
  /** A stable name for client generators (the spec numbers endpoints but does not name them). */
  readonly operationId: string
  readonly method: HttpMethod
  readonly path: string
  readonly summary: string
  readonly requestBody?: RepresentationName
  readonly parameters?: readonly NamedParameter[]
  readonly responses: readonly SuccessResponse[]
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

export const ACTIVITY_PATH = '/fitnessActivities/{activity_id}'

/** The nine rows of the §4 table. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    number: 1,
    operationId: 'readUser',
    method: 'get',
    path: '/user',
    summary: "Read the user's entry-point record",
    responses: [{ status: '200', description: 'The User (§4 endpoint 1).', body: 'User' }],
  },
  {
    number: 2,
    operationId: 'readFeed',
    method: 'get',
    path: '/fitnessActivities',
    summary: 'Read a page of the activity feed',
    parameters: FEED_PARAMETERS,
    responses: [
      { status: '200', description: 'A page of the activity feed (§4 endpoint 2).', body: 'FitnessActivityFeed' },
      NOT_MODIFIED,
    ],
  },
  {
    number: 3,
    operationId: 'readActivity',
    method: 'get',
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
  },
  {
    number: 4,
    operationId: 'createActivity',
    method: 'post',
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
  },
  {
    number: 5,
    operationId: 'updateLiveActivity',
    method: 'post',
    path: ACTIVITY_PATH,
    summary: 'Add path points to a live activity, or finish it',
    requestBody: 'LiveFitnessActivityUpdate',
    responses: [
      { status: '204', description: 'No body (§4 endpoint 5). How finishing is signalled is not shown (§4 rule 6).' },
    ],
  },
  {
    number: 6,
    operationId: 'editProfile',
    method: 'put',
    path: '/profile',
    summary: 'Edit the profile with only the fields to change',
    requestBody: 'ProfileEdit',
    responses: [{ status: '200', description: 'The whole updated profile (§4 endpoint 6; rule 8).', body: 'Profile' }],
  },
  {
    number: 7,
    operationId: 'editActivity',
    method: 'put',
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
  },
  {
    number: 8,
    operationId: 'deleteActivity',
    method: 'delete',
    path: ACTIVITY_PATH,
    summary: 'Delete an activity',
    responses: [{ status: '204', description: 'No body (§4 endpoint 8).' }],
  },
  {
    number: 9,
    operationId: 'readActivityHeaders',
    method: 'head',
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
  },
]

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
