import type { ExchangeEntry } from '../model/exchange.js'
import type { RequestTemplate, Scenario, Step, TokenRole } from '../model/scenario.js'
import type { RecordedExchange } from '../../proxy/reading/read-exchanges.js'
import { literalText, literalValue } from '../shared/literal-text.js'
import type { SkippedExchange } from './diff-result.js'
import { activityIdOf } from './volatile-values.js'
import { ENTRY_POINT_PATH, FEED_PATH, PROFILE_PATH } from '../spec/paths.js'

/*
 * A recording as one scenario the normal run path can send: reads as they were recorded; a create
 * with the run marker put in its notes and marked `creates`, so cleanup deletes what it made; an edit,
 * live update or delete only of an activity this replay created (its URL is the capture of that
 * create's Location). Every other write is left out, with the reason: it would change something the
 * replay did not create. Recorded text stays data: `${` is escaped as the scaffolder escapes it.
 */

export interface ReplayPlan {
  readonly scenario: Scenario
  /** For each step of the scenario, the exchange it replays. */
  readonly replayed: readonly RecordedExchange[]
  readonly skipped: readonly SkippedExchange[]
  /** Recorded with a second token and replayed with --other-token. */
  readonly roles: readonly TokenRole[]
  /** The recorded server's base URL (origin and path prefix), for its role map. */
  readonly recordedBase: string
}

const SPEC_PATH = new RegExp(`(${ENTRY_POINT_PATH}|${FEED_PATH}|${PROFILE_PATH})(/|$|\\?)`)
const FEED = new RegExp(`^${FEED_PATH}/?$`)
const ACTIVITY = new RegExp(`^${FEED_PATH}/([^/]+)$`)
const CREATE_CAPTURE = (index: number): string => `created${index}`

export function planReplay(
  exchanges: readonly RecordedExchange[],
  file: string,
  options: { readonly otherToken: boolean },
): ReplayPlan {
  const steps: Step[] = []
  const replayed: RecordedExchange[] = []
  const skipped: SkippedExchange[] = []
  const tokenIds: string[] = []
  const createdById = new Map<string, string>()
  const roles = new Set<TokenRole>()
  let recordedBase = ''
  for (const exchange of exchanges) {
    const { request } = exchange.entry
    const url = new URL(request.url)
    const prefix = url.pathname.slice(0, SPEC_PATH.exec(url.pathname)?.index ?? 0)
    if (recordedBase === '') recordedBase = `${url.origin}${prefix}`
    const path = url.pathname.slice(prefix.length)
    const shown = `${request.method} ${path}${url.search}`
    const at = `${exchange.file}:${exchange.line}`
    const skip = (reason: string): void => void skipped.push({ at, request: shown, reason })
    const auth = authOf(exchange.entry, tokenIds, options.otherToken)
    if (typeof auth === 'object') {
      skip(auth.skip)
      continue
    }
    const method = request.method.toUpperCase()
    if (!isMethod(method)) {
      skip(`${method} is not a method of §1 rule 1`)
      continue
    }
    const recordedId = ACTIVITY.exec(path)?.[1]
    const ownUrl = recordedId !== undefined ? createdById.get(recordedId) : undefined
    const isRead = method === 'GET' || method === 'HEAD'
    const isCreate = method === 'POST' && FEED.test(path)
    if (!isRead && !isCreate && ownUrl === undefined) {
      skip(
        recordedId !== undefined
          ? 'a write to an activity this replay did not create (its create is not in the recording, or was not replayed)'
          : 'a write to something this replay did not create',
      )
      continue
    }
    const body = request.postData?.text
    let json: unknown
    if (isCreate || (ownUrl !== undefined && method === 'PUT')) {
      const parsed = parseObject(body)
      if (!parsed) {
        skip(
          isCreate
            ? 'a create whose body is not a JSON object could not carry the run marker, so what it made could not be proven ours and deleted'
            : 'an edit whose body is not a JSON object could drop the run marker from the notes',
        )
        continue
      }
      if ('notes' in parsed && typeof parsed['notes'] !== 'string') {
        skip(
          'its notes are not a text: sent as recorded, a server that took them would drop the run marker; with the marker put in, it would be another request',
        )
        continue
      }
      const notes =
        typeof parsed['notes'] === 'string' && parsed['notes'] !== '' ? ` ${literalText(parsed['notes'])}` : ''
      json =
        isCreate || 'notes' in parsed
          ? { ...(literalValue(parsed) as object), notes: `\${run.marker}${notes}` }
          : literalValue(parsed)
    }
    if (auth !== 'none') roles.add(auth)
    const index = steps.length + 1
    const headers: Record<string, string> = {}
    for (const header of request.headers) {
      const name = header.name.toLowerCase()
      if (name === 'accept' || name === 'if-modified-since' || (name === 'content-type' && body !== undefined))
        headers[name] = literalText(header.value)
    }
    const template: RequestTemplate = {
      method,
      url: ownUrl ?? literalText(path + url.search),
      query: {},
      headers,
      auth,
      wire: false,
      ...(json !== undefined ? { json } : body !== undefined ? { body: literalText(body) } : {}),
    }
    const location = exchange.entry.response.headers.find((h) => h.name.toLowerCase() === 'location')?.value
    const createdId = isCreate && location ? activityIdOf(location) : undefined
    if (createdId !== undefined) createdById.set(createdId, `\${${CREATE_CAPTURE(index)}}`)
    steps.push({
      name: `${shown} (${at})`,
      at: { file: exchange.file, line: exchange.line, column: 1 },
      request: template,
      expect: { checks: [] },
      capture: isCreate ? { [CREATE_CAPTURE(index)]: 'headers.location' } : {},
      ...(isCreate ? { creates: 'headers.location' } : {}),
    })
    replayed.push(exchange)
  }
  const scenario: Scenario = {
    id: 'recording',
    title: `replay of ${file}`,
    file,
    at: { file, line: 1, column: 1 },
    rules: [],
    tags: [],
    tokens: [...roles],
    writes: steps.some((step) => step.request?.method !== 'GET' && step.request?.method !== 'HEAD'),
    exclusive: false,
    steps,
    cleanup: [],
  }
  return { scenario, replayed, skipped, roles: [...roles], recordedBase }
}

/** The token an exchange was recorded with as a role: the first token seen is --token, a second one --other-token. */
function authOf(
  entry: ExchangeEntry,
  tokenIds: string[],
  otherToken: boolean,
): 'token' | 'other-token' | 'none' | { skip: string } {
  const sent = entry.request.headers.some((h) => h.name.toLowerCase() === 'authorization')
  if (!sent) return 'none'
  const id = entry._tokenId ?? 'unnamed'
  if (!tokenIds.includes(id)) tokenIds.push(id)
  const position = tokenIds.indexOf(id)
  if (position === 0) return 'token'
  if (position === 1 && otherToken) return 'other-token'
  return {
    skip:
      position === 1
        ? 'recorded with a second token: give --other-token to replay it'
        : 'recorded with a third token: a replay has two token roles',
  }
}

function isMethod(method: string): method is RequestTemplate['method'] {
  return ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'].includes(method)
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
