// The feed's query parameters (§4 rule 1) plus `page`, the parameter §2.2 says `previous` carries.
import { dayNumber, parseIsoDate } from '../representations/calendar.js'
import type { Faults } from '../faults/faults.js'
import { scopeListsNothing } from '../faults/fuzz-mutants.js'
import { ReplyProblem, textReply } from '../http/reply.js'

/** §8: default page size. */
export const defaultPageSize = 25

/** Inclusive day bounds (days since 1970-01-01); absent bounds are open. */
export interface TimeScope {
  startFrom?: number
  startTo?: number
  modifiedFrom?: number
  modifiedTo?: number
}

export interface FeedQuery {
  pageSize: number
  /** Whether the client gave pageSize: `previous` keeps it only then (§4 rule 2). */
  pageSizeGiven: boolean
  /** 0-based page number; page 0 holds the first entries in the feed's order. */
  page: number
  /** Present when any time-scope parameter was given (§2.2: such a feed has no previous). */
  scope?: TimeScope
}

const scopeParameters = {
  noEarlierThan: 'startFrom',
  noLaterThan: 'startTo',
  modifiedNoEarlierThan: 'modifiedFrom',
  modifiedNoLaterThan: 'modifiedTo',
} as const

/** Parses and checks the parameters; anything malformed is a 400 with a readable reason. */
export function parseFeedQuery(query: URLSearchParams): FeedQuery {
  const pageSize = optionalCount(query, 'pageSize', 1)
  const page = optionalCount(query, 'page', 0)
  const result: FeedQuery = {
    pageSize: pageSize ?? defaultPageSize,
    pageSizeGiven: pageSize !== undefined,
    page: page ?? 0,
  }
  for (const [parameter, bound] of Object.entries(scopeParameters)) {
    const text = single(query, parameter)
    if (text === undefined) continue
    const midnight = parseIsoDate(text)
    if (midnight === undefined)
      throw badRequest(`${parameter} must be a date written YYYY-MM-DD (§4 rule 1), not "${text}"`)
    result.scope = { ...result.scope, [bound]: dayNumber(midnight) }
  }
  return result
}

/** §4 rule 1: scopes are whole days, both ends included. The scope mutants misread one bound each. */
export function isInScope(
  scope: TimeScope,
  startTime: number,
  modifiedAt: number,
  faults: Faults,
  createdAt = modifiedAt,
): boolean {
  if (scopeListsNothing(scope, faults)) return false
  const startDay = dayNumber(startTime)
  const modifiedDay = dayNumber(modifiedAt)
  const startFromDay = faults.is('start-scope-in-other-zone') ? dayNumber(startTime - 3 * 3_600_000) : startDay
  const modifiedFromDay = faults.is('modified-scope-on-creation-date') ? dayNumber(createdAt) : modifiedDay
  const reading = (ignored: boolean, exclusive = false): BoundReading =>
    ignored ? 'ignored' : exclusive ? 'exclusive' : 'inclusive'
  return (
    isWithin(
      faults.is('no-earlier-than-on-modified-date') ? modifiedDay : startFromDay,
      scope.startFrom,
      'lower',
      reading(faults.is('no-earlier-than-ignored'), faults.is('no-earlier-than-exclusive')),
    ) &&
    isWithin(
      startDay,
      scope.startTo,
      'upper',
      reading(faults.is('no-later-than-ignored'), faults.is('no-later-than-exclusive')),
    ) &&
    isWithin(
      modifiedFromDay,
      scope.modifiedFrom,
      faults.is('modified-no-earlier-than-inverted') ? 'upper' : 'lower',
      reading(faults.is('modified-no-earlier-than-ignored'), faults.is('modified-no-earlier-than-exclusive')),
    ) &&
    isWithin(
      modifiedDay,
      scope.modifiedTo,
      faults.is('modified-no-later-than-inverted') ? 'lower' : 'upper',
      reading(faults.is('modified-no-later-than-ignored'), faults.is('modified-no-later-than-exclusive')),
    )
  )
}

type BoundReading = 'inclusive' | 'exclusive' | 'ignored'

/** One bound; an absent bound (or one a mutant ignores) lets everything through. */
function isWithin(day: number, bound: number | undefined, side: 'lower' | 'upper', reading: BoundReading): boolean {
  if (bound === undefined || reading === 'ignored') return true
  if (side === 'lower') return reading === 'exclusive' ? day > bound : day >= bound
  return reading === 'exclusive' ? day < bound : day <= bound
}

function optionalCount(query: URLSearchParams, name: string, min: number): number | undefined {
  const text = single(query, name)
  if (text === undefined) return undefined
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN
  if (!(value >= min)) throw badRequest(`${name} must be an integer of at least ${min}, not "${text}"`)
  return value
}

/** A parameter given twice is ambiguous; refuse it rather than guess which one the client meant. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name)
  if (values.length > 1) throw badRequest(`${name} is given ${values.length} times; give it once`)
  return values[0]
}

function badRequest(message: string): ReplyProblem {
  return new ReplyProblem(textReply(400, message))
}
