// Faults that real teams ship and that only real clients' input reaches: notes outside ASCII or of
// several kilobytes, an empty notes edit, long routes, midnight start times, a repeated DELETE or
// edit, writes to a deleted activity, a read with side effects. Each mutant of mutants.ts's
// "real clients" block triggers on such input only, so a suite that sends today's data passes it.
import type { Call } from '../call.js'
import type { Activity, PathPoint } from '../store/model.js'
import type { MutantName } from './mutants.js'

interface FaultSwitch {
  is(name: MutantName): boolean
}

const LONG_NOTES = 4_096
const LONG_PATH = 1_000
const DAY_MS = 86_400_000

/** What create stores of the notes it was sent. */
export function createdNotes(notes: string, faults: FaultSwitch): string {
  if (faults.is('notes-normalized-nfc')) return notes.normalize('NFC')
  // A cut counted in UTF-16 units, as a naive `substring` does: it can split a surrogate pair.
  if (faults.is('long-notes-cut-in-pair') && notes.length > LONG_NOTES) return notes.slice(0, LONG_NOTES - 1)
  return notes
}

/** What an edit stores of the notes it was sent; `current` is what the activity holds. */
export function editedNotes(notes: string, current: string | undefined, faults: FaultSwitch): string {
  // UTF-8 bytes read back as Latin-1 on the edit route only.
  if (faults.is('edit-notes-mojibake') && [...notes].some((c) => c.charCodeAt(0) > 0x7f))
    return Buffer.from(notes, 'utf8').toString('latin1')
  if (faults.is('repeated-edit-appends') && notes !== '' && notes === current) return `${notes}\n${notes}`
  return notes
}

/** True when an edit blows up on its input (a 5xx). */
export function editCrashes(notes: string | undefined, faults: FaultSwitch): boolean {
  return faults.is('edit-empty-notes-500') && notes === ''
}

/** What create stores of the route it was sent. */
export function createdPath(path: PathPoint[], faults: FaultSwitch): PathPoint[] {
  return faults.is('long-path-cut') && path.length > LONG_PATH ? path.slice(0, LONG_PATH) : path
}

/** What create stores of the start time (epoch ms of the wall time sent). */
export function createdStart(startTime: number, faults: FaultSwitch): number {
  // A 12-hour clock bug: hour 0 read as 12.
  return faults.is('midnight-start-as-noon') && startTime % DAY_MS === 0 ? startTime + 12 * 3_600_000 : startTime
}

/**
 * Under repeated-get-moves-last-modified: when a GET that followed a GET "touched" each activity,
 * whether its last read was a GET, and what its last GET announced.
 */
const getTouches = new WeakMap<Activity, number>()
const lastReadWasGet = new WeakMap<Activity, boolean>()
const lastGetAnnounced = new WeakMap<Activity, number>()

/**
 * The modification time a read announces: under the mutant, a repeated GET moves what later GETs
 * announce. HEAD announces what the GET before it did, so the one fault stays LAST-MODIFIED-STABLE's:
 * a HEAD that disagreed with the GET before it would be HEAD-MATCHES-GET's fault too.
 */
export function announcedModifiedAt(activity: Activity, call: Call): number {
  if (!call.server.faults.is('repeated-get-moves-last-modified')) return activity.modifiedAt
  if (call.isHead) return Math.max(activity.modifiedAt, lastGetAnnounced.get(activity) ?? 0)
  const touched = getTouches.get(activity)
  if (lastReadWasGet.get(activity)) getTouches.set(activity, call.server.now())
  lastReadWasGet.set(activity, true)
  const announced = touched === undefined ? activity.modifiedAt : Math.max(activity.modifiedAt, touched)
  lastGetAnnounced.set(activity, announced)
  return announced
}

/** The deleted activity a method still reaches under a mutant, or undefined. */
export function deletedButServed(call: Call): Activity | undefined {
  const { store, faults } = call.server
  const record = store.deletedRecord(call.activityId ?? '')
  if (!record || record.owner !== call.grant.user) return undefined
  if (call.isHead) return undefined
  if (call.method === 'PUT') return faults.is('deleted-accepts-edit') ? record : undefined
  if (call.method === 'POST') return faults.is('deleted-accepts-live-update') ? record : undefined
  return undefined
}

/** A DELETE of an activity its owner already deleted puts it back (answered 204 like the first). */
export function repeatedDeleteRestores(call: Call): boolean {
  const { store, faults } = call.server
  const record = store.deletedRecord(call.activityId ?? '')
  if (!faults.is('second-delete-restores') || !record || record.owner !== call.grant.user) return false
  store.restore(record)
  return true
}
