// A feed item as the survey uses it: its id (the uri's last segment, whatever the §2.2 uri form),
// and its start time as the server displays it. The display is the reference (§2.2 gives no zone):
// the displayed calendar day is the day a start-time scope must count the activity on.
import { parseSpecTime } from '../../validation/time-formats.js'
import type { Comparison } from './survey-result.js'

export interface SurveyItem {
  /** The item as the server sent it. */
  readonly item: Readonly<Record<string, unknown>>
  readonly uri: string
  readonly id: string
  /** The displayed start time read as a wall-clock instant (ms "as if UTC"); undefined when unreadable. */
  readonly start?: number
  /** `YYYY-MM-DD` of the displayed start time. */
  readonly day?: string
}

export function toSurveyItem(item: unknown): SurveyItem | undefined {
  if (typeof item !== 'object' || item === null) return undefined
  const record = item as Record<string, unknown>
  if (typeof record.uri !== 'string') return undefined
  const id = lastSegment(record.uri)
  // §2.2 irregularity: some items spell it startTime.
  const text = record.start_time ?? record.startTime
  const start = typeof text === 'string' ? parseSpecTime(text) : undefined
  return { item: record, uri: record.uri, id, ...(start !== undefined ? { start, day: dayOf(start) } : {}) }
}

/** `/activities/12` and `/fitnessActivities/12` name the same activity (§2.2 irregularities). */
export function lastSegment(uri: string): string {
  try {
    return decodeURIComponent(
      new URL(uri, 'http://relative.invalid').pathname.replace(/\/+$/, '').split('/').pop() ?? '',
    )
  } catch {
    return uri
  }
}

export function dayOf(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

/** The day `days` after `day` (both `YYYY-MM-DD`). */
export function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000)
}

/**
 * A 200 feed page whose `items` is missing or not a list. §2.2's table says items is an array: that is
 * FEED-FIELDS' fault alone, so what the page lists (a scope's bounds, a page size) is not judged on it.
 */
export function itemsNotAList(items: unknown): Comparison {
  return {
    ok: false,
    rule: 'FEED-FIELDS',
    target: 'body.items',
    matcher: 'type',
    expected: 'array',
    ...(items === undefined ? {} : { actual: items }),
    message: `a feed page answered 200 ${items === undefined ? 'without items' : 'with items that is not a list'} (§2.2 items: array)`,
  }
}
