/**
 * Paths of a recording relative to {base_url} (§1 rule 5). A recording stores the full upstream URL;
 * the target's base path (e.g. `/api/v1`) is found again from the exchanges matched to §4 endpoints.
 */
import type { ExchangeEntry } from '../../src/model/exchange.js'

/** The most common prefix in front of the §4 paths of the recording, '' if none. */
export function basePathOfRecording(entries: Iterable<ExchangeEntry>): string {
  const votes: BasePathVotes = new Map()
  for (const entry of entries) voteBasePath(votes, entry)
  return winningBasePath(votes)
}

/** Votes for each base path seen: one map entry per distinct prefix, so a recording can be streamed. */
export type BasePathVotes = Map<string, number>

export function voteBasePath(votes: BasePathVotes, entry: ExchangeEntry): void {
  if (entry._endpoint === undefined) return
  const pathname = pathnameOf(entry.request.url)
  const fixed = entry._endpoint.path.split('/<')[0] ?? ''
  const at = pathname.lastIndexOf(fixed)
  if (at < 0) return
  const base = pathname.slice(0, at)
  votes.set(base, (votes.get(base) ?? 0) + 1)
}

export function winningBasePath(votes: ReadonlyMap<string, number>): string {
  return [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}

/** A path without the base path in front; unchanged when it does not start with it. */
export function stripBasePath(pathname: string, basePath: string): string {
  if (basePath !== '' && pathname.startsWith(`${basePath}/`)) return pathname.slice(basePath.length)
  return pathname
}

export function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url.split('?')[0] ?? url
  }
}
