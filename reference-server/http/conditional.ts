// Conditional reads (§4 rule 3): If-Modified-Since on the feed (2) and an activity (3).
import { formatHttpDate, parseHttpDate, wholeSeconds } from './http-date.js'
import { emptyReply, type Reply } from './reply.js'

/**
 * True when the resource has not changed since the date in If-Modified-Since. Times compare at
 * the second resolution HTTP dates have; an absent or unparseable header means "send it"
 * (RFC 9110 §13.1.3).
 */
export function isNotModified(header: string | undefined, lastModified: number): boolean {
  if (header === undefined) return false
  const since = parseHttpDate(header)
  if (since === undefined) return false
  return wholeSeconds(lastModified) <= since
}

/** 304 with no body (§4 rule 3); Last-Modified repeated so the client can keep its validator. */
export function notModifiedReply(lastModified: number): Reply {
  return emptyReply(304, lastModifiedHeader(lastModified))
}

export function lastModifiedHeader(lastModified: number): Record<string, string> {
  return { 'Last-Modified': formatHttpDate(lastModified) }
}
