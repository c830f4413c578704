// §4 endpoint 3: GET /fitnessActivities/<id> → 200 FitnessActivity with Last-Modified (§2.3), or
// 304 (§4 rule 3). HEAD (§4 endpoint 9) is this handler with the body taken off (dispatch.ts).
import { gzipSync } from 'node:zlib'
import type { Call } from '../call.js'
import { isNotModified, lastModifiedHeader, notModifiedReply } from '../http/conditional.js'
import { formatHttpDate, parseHttpDate, wholeSeconds } from '../http/http-date.js'
import { activityBody } from '../representations/representations.js'
import { jsonReply, type Reply } from '../http/reply.js'
import { announcedModifiedAt } from '../faults/real-client-faults.js'
import { findOwnActivity } from './find-activity.js'

export function readActivity(call: Call): Reply {
  const { faults, behaviour } = call.server
  const activity = findOwnActivity(call)
  const reply = jsonReply(
    behaviour,
    'FitnessActivity',
    activityBody(activity, call.server),
    lastModifiedHeader(announcedModifiedAt(activity, call)),
  )
  if (isNotModifiedFor(call, activity.modifiedAt)) {
    const notModified = notModifiedReply(activity.modifiedAt)
    return faults.is('activity-304-with-body') && reply.body ? { ...notModified, rawAfterEnd: reply.body } : notModified
  }
  if (faults.is('activity-media-type-wrong')) reply.headers['Content-Type'] = 'application/json'
  // The read mutants spare HEAD, which has mutants of its own (send-reply.ts).
  if (!call.isHead && faults.is('no-last-modified-on-read')) delete reply.headers['Last-Modified']
  if (!call.isHead && faults.is('get-last-modified-now'))
    reply.headers['Last-Modified'] = formatHttpDate(call.server.now())
  // The length of the body gzipped, though the request asked for no coding.
  if (call.isHead && faults.is('head-length-counts-gzip') && activity.seeded && reply.body)
    reply.headContentLength = gzipSync(reply.body).length
  if (!call.isHead && faults.is('last-modified-not-gmt'))
    reply.headers['Last-Modified'] = reply.headers['Last-Modified']!.replace(/GMT$/, 'UTC')
  return reply
}

function isNotModifiedFor(call: Call, modifiedAt: number): boolean {
  const { faults } = call.server
  const header = call.headers['if-modified-since']
  if (faults.is('activity-never-304')) return false
  if (faults.is('activity-stale-304')) return header !== undefined && parseHttpDate(header) !== undefined
  if (faults.is('activity-304-only-on-exact-date'))
    return header !== undefined && parseHttpDate(header) === wholeSeconds(modifiedAt)
  // Only IMF-fixdate (`Sun, 06 Nov 1994 …`) is read; the RFC 850 and asctime forms count as absent.
  if (faults.is('ims-obsolete-forms-ignored') && header !== undefined && !/^[A-Za-z]{3}, \d{2} /.test(header.trim()))
    return false
  if (faults.is('ims-invalid-date-304') && header !== undefined && parseHttpDate(header) === undefined) return true
  if (faults.is('head-304-when-modified') && call.isHead && header !== undefined && parseHttpDate(header) !== undefined)
    return true
  return isNotModified(header, modifiedAt)
}
