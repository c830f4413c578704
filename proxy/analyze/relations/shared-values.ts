/**
 * The values a feed item (§2.2) and its activity (§2.3) both carry, and where they differ. §2.3 gives
 * the activity's start time in the "same format as in 2.2", so the two texts name one instant; each
 * side is read as it is written (no zone is assumed), and only a value both sides carry is compared:
 * §2.2 lets an item lack source, entry_mode and has_map, and spell the start time startTime.
 */
import { parseSpecTime } from '../../../src/validation/time-formats.js'

const SHARED_FIELDS = ['type', 'total_distance', 'duration', 'source', 'entry_mode', 'has_map'] as const

export type SharedValues = Readonly<Record<string, unknown>>

export interface Difference {
  readonly field: string
  readonly item: unknown
  readonly activity: unknown
}

/** The shared values of an item or an activity: the start time as written, the others as they are. */
export function sharedValuesOf(record: Readonly<Record<string, unknown>>): SharedValues {
  const values: Record<string, unknown> = {}
  const start = record.start_time ?? record.startTime
  if (start !== undefined) values.start_time = start
  for (const field of SHARED_FIELDS) if (record[field] !== undefined) values[field] = record[field]
  return values
}

/** Fields whose values differ; a start time that does not parse is left to the schema's own rule. */
export function differences(item: SharedValues, activity: SharedValues): Difference[] {
  const found: Difference[] = []
  for (const field of ['start_time', ...SHARED_FIELDS]) {
    const a = item[field]
    const b = activity[field]
    if (a === undefined || b === undefined || sameValue(field, a, b)) continue
    found.push({ field, item: a, activity: b })
  }
  return found
}

function sameValue(field: string, item: unknown, activity: unknown): boolean {
  if (field === 'start_time') {
    // The same text is the same instant (or, unparsed, left to the schema's rule alike): no need to read it.
    if (item === activity) return true
    const a = typeof item === 'string' ? parseSpecTime(item) : undefined
    const b = typeof activity === 'string' ? parseSpecTime(activity) : undefined
    return a === undefined || b === undefined || a === b
  }
  // has_map's type (text, not boolean) is judged by its own rule on each side; here only its value.
  if (field === 'has_map') return String(item) === String(activity)
  return item === activity
}
