import type { AuthChoice } from '../../model/scenario.js'
import { markerSweepReads } from '../../spec/marker-sweep.js'
import { FULL_ACCESS_ROLES } from '../../spec/token-roles.js'
import { FAR_YEARS } from './ownership.js'
import { resolveUrl } from '../http/resolve-url.js'
import { authorizationFor, type RunContext } from '../run-context.js'

/**
 * The run owns the days of its far year: everything it creates is dated there, its scoped reads
 * judge them, and the end-of-run sweep deletes what carries its marker there. So before anything is
 * written, those days are read, for every user (§4 rule 1, month by month as the sweep reads them).
 * A year that holds an activity the run did not create (a running log imported from the 1980s) is
 * never the run's: the next year is tried, and the run says so. An item whose start time names
 * another year does not count (a server that ignores the scope lists the whole feed; that is the
 * scope rules' business, not a reason to give up a year).
 */
export type FarYearChoice = { readonly year: number; readonly moved?: string } | { readonly problem: string }

export async function chooseFarYear(context: RunContext): Promise<FarYearChoice> {
  const span = FAR_YEARS.last - FAR_YEARS.first + 1
  const first = context.run.farYear
  const taken: string[] = []
  for (let offset = 0; offset < span; offset++) {
    const year = FAR_YEARS.first + ((first - FAR_YEARS.first + offset) % span)
    const holder = await occupant(context, year)
    if (holder === undefined)
      return taken.length === 0
        ? { year }
        : { year, moved: `${taken.join('; ')}; the run uses ${year} instead, whose days hold nothing` }
    taken.push(`${year} holds activities on this account (${holder})`)
  }
  return {
    problem: `every year from ${FAR_YEARS.first} to ${FAR_YEARS.last} holds activities on this account, and the suite writes only to days that held nothing before the run`,
  }
}

/** A description of something already there in that year (whose feed, which item), or undefined when every month reads empty. */
async function occupant(context: RunContext, year: number): Promise<string | undefined> {
  for (const role of FULL_ACCESS_ROLES) {
    if (authorizationFor(role, context) === undefined) continue
    for (const read of markerSweepReads(year)) {
      const items = await feedItems(context, resolveUrl(read.path, context.baseUrl, read.query).url, read.accept, role)
      const there = items.find((item) => startsIn(item, year))
      if (there !== undefined)
        return `${role}'s feed lists ${describe(there)} in ${read.query['noEarlierThan']?.slice(0, 7)}`
    }
  }
  return undefined
}

function startsIn(item: unknown, year: number): boolean {
  const record = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
  const start = record['start_time'] ?? record['startTime']
  // An item without a readable start time is taken at the scope's word: it is in that month.
  return typeof start !== 'string' || start.includes(String(year))
}

function describe(item: unknown): string {
  const uri = (item as { uri?: unknown } | null)?.uri
  return typeof uri === 'string' ? uri : 'an item'
}

/** The items of the first page; none when the read fails (nothing is known there, and nothing of the run will touch it unread). */
async function feedItems(context: RunContext, url: string, accept: string, role: AuthChoice): Promise<unknown[]> {
  const headers: Record<string, string> = { accept }
  const authorization = authorizationFor(role, context)
  if (authorization) headers['authorization'] = authorization
  try {
    const response = await context.client.send({ method: 'GET', url, headers, wire: false })
    if (response.status !== 200) return []
    const items = (JSON.parse(response.body.toString('utf8')) as { items?: unknown } | null)?.items
    return Array.isArray(items) ? items : []
  } catch {
    return []
  }
}
