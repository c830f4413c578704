/** What a feed read (§4 endpoint 2) asked for, from its query (§4 rule 1; `page` from §2.2's previous link). */
import { DEFAULT_PAGE_SIZE } from '../../src/spec/endpoints.js'

export interface FeedRequest {
  /** The page size asked for, or the default of 25 (§4 rule 1, §8); undefined when pageSize is not one positive integer. */
  readonly pageSize?: { readonly value: number; readonly given: boolean }
  /** Any of the four date parameters of §4 rule 1 is present: `size` is then not the whole feed's. */
  readonly isScoped: boolean
  /** The start-time scopes present with a YYYY-MM-DD value: a "time-scoped feed" of §2.2. */
  readonly startScopes: readonly string[]
  readonly isStartScoped: boolean
  /** The request names a `page` (it follows a previous link): the page may be the last, short one. */
  readonly isLaterPage: boolean
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const START_SCOPES: ReadonlySet<string> = new Set(['noEarlierThan', 'noLaterThan'])
const SCOPES: ReadonlySet<string> = new Set([...START_SCOPES, 'modifiedNoEarlierThan', 'modifiedNoLaterThan'])

type Query = readonly (readonly [string, string])[]

/**
 * The feed request a query asks for. An exchange's view has one query list, read by a rule and two
 * relations: it is worked out once per list.
 */
export function feedRequestOf(query: Query): FeedRequest {
  let request = requests.get(query)
  if (request === undefined) requests.set(query, (request = readFeedRequest(query)))
  return request
}

const requests = new WeakMap<Query, FeedRequest>()

/** One pass over the query: every feed exchange is read, so this runs thousands of times a second. */
function readFeedRequest(query: Query): FeedRequest {
  const pageSizes: string[] = []
  const startScopes: string[] = []
  let isScoped = false
  let isLaterPage = false
  for (const [key, value] of query) {
    if (key === 'pageSize') pageSizes.push(value)
    else if (key === 'page') isLaterPage = true
    else if (SCOPES.has(key)) {
      isScoped = true
      if (START_SCOPES.has(key) && DATE.test(value) && !startScopes.includes(key)) startScopes.push(key)
    }
  }
  // In the order §4 rule 1 lists them, whatever the query's.
  if (startScopes.length === 2 && startScopes[0] !== 'noEarlierThan') startScopes.reverse()
  return {
    pageSize: pageSizeOf(pageSizes),
    isScoped,
    startScopes,
    isStartScoped: startScopes.length > 0,
    isLaterPage,
  }
}

function pageSizeOf(values: readonly string[]): FeedRequest['pageSize'] {
  if (values.length === 0) return { value: DEFAULT_PAGE_SIZE, given: false }
  // A value §4 rule 1 does not describe (0, -1, "abc", two values): what the page should hold is not shown.
  const [value] = values
  if (values.length > 1 || value === undefined || !/^[1-9][0-9]{0,8}$/.test(value)) return undefined
  return { value: Number(value), given: true }
}
