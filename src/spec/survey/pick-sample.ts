// Which existing activities the survey judges, and why: a small, deterministic, diverse sample. Pure.
// First candidates are chosen from the feed items alone (newest, oldest, near midnight, same day,
// each uri form, and a spread over the history); after they are read, the sample keeps those with a
// reason, adding the largest body, the most path points, non-ASCII notes and the Last-Modified
// furthest from the start time among them.
import type { SurveyItem } from './feed-items.js'
import type { SurveyExchange } from './survey-exchange.js'
import { FEED_PATH } from '../paths.js'

export interface Candidate {
  readonly item: SurveyItem
  readonly reasons: readonly string[]
}

export interface ReadCandidate extends Candidate {
  /** The activity as read (GET), when it answered 200 with a JSON object. */
  readonly activity?: Readonly<Record<string, unknown>>
  readonly bodyBytes: number
  /** The read itself (without Accept-Encoding: the body as the server stores it). */
  readonly read: SurveyExchange
  /** Last-Modified as an instant, when the read carried a parseable one that HEAD confirms. */
  readonly lastModified?: number
  /** Why the activity has no trusted Last-Modified although GET gave one (GET and HEAD disagree). */
  readonly lastModifiedDoubt?: string
}

export interface SampledActivity extends ReadCandidate {
  readonly activity: Readonly<Record<string, unknown>>
}

const NEAR_MIDNIGHT_MINUTES = 180

/** Up to `limit` items to read, each with the reasons it was picked (a spread item has none yet). */
export function pickCandidates(items: readonly SurveyItem[], limit: number): Candidate[] {
  const reasons = new Map<SurveyItem, string[]>()
  const add = (item: SurveyItem | undefined, reason: string): void => {
    if (!item) return
    const list = reasons.get(item) ?? []
    if (!list.includes(reason)) list.push(reason)
    reasons.set(item, list)
  }
  const dated = items.filter((item) => item.start !== undefined)
  const byStart = [...dated].sort((a, b) => a.start! - b.start! || compareIds(a.id, b.id))
  add(byStart.at(-1), 'newest start time')
  add(byStart[0], 'oldest start time')
  const minuteOf = (item: SurveyItem): number => Math.floor((item.start! % 86_400_000) / 60_000)
  const byMinute = [...byStart].sort((a, b) => minuteOf(a) - minuteOf(b))
  const earliest = byMinute[0]
  const latest = byMinute.at(-1)
  if (earliest && minuteOf(earliest) < NEAR_MIDNIGHT_MINUTES)
    add(earliest, `starts shortly after midnight (${clock(earliest)} displayed)`)
  if (latest && minuteOf(latest) >= 1440 - NEAR_MIDNIGHT_MINUTES)
    add(latest, `starts shortly before midnight (${clock(latest)} displayed)`)
  const sameDay = newestSharedDay(byStart)
  for (const item of sameDay) add(item, `one of ${sameDay.length} activities on ${item.day}`)
  for (const form of ['/activities/', `${FEED_PATH}/`])
    add(
      items.find((item) => item.uri.includes(form)),
      `uri form ${form}<id>`,
    )
  const chosen = [...reasons.keys()]
  const rest = items.filter((item) => !reasons.has(item))
  const room = Math.max(0, limit - chosen.length)
  // An even spread over the history, so the largest body, the longest path and the edited ones can be among them.
  const spread =
    room === 0 ? [] : rest.filter((_, index) => index % Math.max(1, Math.ceil(rest.length / room)) === 0).slice(0, room)
  return [...chosen, ...spread].map((item) => ({ item, reasons: reasons.get(item) ?? [] }))
}

/** Keeps the read candidates that have a reason, adding the reasons only a read can give. */
export function pickSample(read: readonly ReadCandidate[]): SampledActivity[] {
  const usable = read.filter((candidate): candidate is SampledActivity => candidate.activity !== undefined)
  const extra = new Map<SampledActivity, string[]>()
  const add = (candidate: SampledActivity | undefined, reason: string): void => {
    if (candidate) extra.set(candidate, [...(extra.get(candidate) ?? []), reason])
  }
  const largest = maxBy(usable, (c) => c.bodyBytes)
  add(largest, `largest body read (${largest?.bodyBytes} bytes)`)
  const longest = maxBy(usable, (c) => pathLength(c.activity))
  if (longest && pathLength(longest.activity) > 0)
    add(longest, `most path points read (${pathLength(longest.activity)})`)
  add(
    usable.find((c) => typeof c.activity.notes === 'string' && /[^ -~\t\n\r]/.test(c.activity.notes)),
    'notes with non-ASCII text',
  )
  const farthest = maxBy(usable, (c) => modificationLag(c) ?? -1)
  const lag = farthest ? modificationLag(farthest) : undefined
  if (farthest && lag !== undefined && lag >= 2 * 86_400_000)
    add(farthest, `Last-Modified ${Math.floor(lag / 86_400_000)} days after its start`)
  return usable
    .map((candidate) => ({ ...candidate, reasons: [...candidate.reasons, ...(extra.get(candidate) ?? [])] }))
    .filter((candidate) => candidate.reasons.length > 0)
}

/** How long after its displayed start an activity was last modified. */
function modificationLag(candidate: ReadCandidate): number | undefined {
  return candidate.lastModified !== undefined && candidate.item.start !== undefined
    ? candidate.lastModified - candidate.item.start
    : undefined
}

function pathLength(activity: Readonly<Record<string, unknown>>): number {
  return Array.isArray(activity.path) ? activity.path.length : 0
}

/** The newest day that holds two or more activities (up to three of them). */
function newestSharedDay(byStart: readonly SurveyItem[]): SurveyItem[] {
  for (let i = byStart.length - 1; i > 0; i--) {
    const day = byStart[i]!.day
    const group = byStart.filter((item) => item.day === day)
    if (group.length >= 2) return group.slice(0, 3)
  }
  return []
}

function maxBy<T>(list: readonly T[], score: (value: T) => number): T | undefined {
  let best: T | undefined
  for (const value of list) if (best === undefined || score(value) > score(best)) best = value
  return best
}

function clock(item: SurveyItem): string {
  return new Date(item.start!).toISOString().slice(11, 19)
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
