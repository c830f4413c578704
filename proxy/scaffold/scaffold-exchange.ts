/** A recorded entry, reduced to what the scaffolder decides on. */
import type { EndpointRef, ExchangeEntry, Finding } from '../../src/model/exchange.js'
import { matchEndpoint, type Endpoint } from '../../src/spec/endpoints.js'
import { pathnameOf, stripBasePath } from '../recording/recording-paths.js'
import { parseJsonOrUndefined } from '../../src/shared/parse-json.js'

export interface ScaffoldEntry {
  readonly id: number
  readonly startedDateTime: string
  readonly method: string
  /** Path relative to {base_url}, no query. */
  readonly path: string
  readonly query: readonly (readonly [string, string])[]
  readonly endpoint?: Endpoint
  readonly status: number
  readonly requestHeaders: ReadonlyMap<string, string>
  readonly responseHeaders: ReadonlyMap<string, string>
  /** Parsed request body when it was JSON; `requestText` otherwise. */
  readonly requestJson?: unknown
  readonly requestText?: string
  /** Parsed response body of a 403 only: its §7 reason names the token role (other bodies are not needed). */
  readonly responseJson?: unknown
  readonly findings: readonly Finding[]
  readonly tokenId?: string
  readonly hasAuthorization: boolean
}

export function toScaffoldExchange(entry: ExchangeEntry, basePath: string): ScaffoldEntry {
  const url = new URL(entry.request.url)
  const path = stripBasePath(pathnameOf(entry.request.url), basePath)
  const requestHeaders = firstValues(entry.request.headers)
  const postText = entry.request.postData?._encoding === 'base64' ? undefined : entry.request.postData?.text
  const responseText = entry.response.content.encoding === 'base64' ? undefined : entry.response.content.text
  return {
    id: entry._id,
    startedDateTime: entry.startedDateTime,
    method: entry.request.method.toUpperCase(),
    path,
    query: [...url.searchParams],
    endpoint: endpointOf(entry._endpoint, entry.request.method, path),
    status: entry.response.status,
    requestHeaders,
    responseHeaders: firstValues(entry.response.headers),
    ...parsedOrText(postText),
    ...responseJsonOf(entry.response.status, responseText),
    findings: entry._findings ?? [],
    tokenId: entry._tokenId,
    hasAuthorization: requestHeaders.has('authorization'),
  }
}

function endpointOf(ref: EndpointRef | undefined, method: string, path: string): Endpoint | undefined {
  return ref === undefined ? matchEndpoint(method, path) : matchEndpoint(ref.method, path)
}

function firstValues(headers: readonly { name: string; value: string }[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const header of headers) {
    const name = header.name.toLowerCase()
    if (!map.has(name)) map.set(name, header.value)
  }
  return map
}

function parsedOrText(text: string | undefined): { requestJson?: unknown; requestText?: string } {
  if (text === undefined || text === '') return {}
  const json = parseJsonOrUndefined(text)
  return json === undefined ? { requestText: text } : { requestJson: json }
}

function responseJsonOf(status: number, text: string | undefined): { responseJson?: unknown } {
  if (status !== 403) return {}
  const json = parseJsonOrUndefined(text)
  return json === undefined ? {} : { responseJson: json }
}
