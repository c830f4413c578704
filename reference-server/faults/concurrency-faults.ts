// Faults that only writes in flight together reach: an id read before a slow write and claimed after
// it, and writes that put back a copy of the activity read before the slow write. Each mutant of
// mutants.ts's "in flight together" block makes one route wait on storage for STORAGE_MS; one write
// at a time (every other scenario, fuzz) never meets another in that window, so only writes sent
// together (suites/concurrency/) see the fault.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Call } from '../call.js'
import type { Activity } from '../store/model.js'
import type { ActivityDraft } from '../data/seed.js'
import type { Store } from '../store/store.js'

/** How long the mutants' storage takes: long enough that writes sent together overlap in it. */
export const STORAGE_MS = 25
const DAY_MS = 86_400_000

/** Per server: the id a create in flight reserved for its user and day (create-id-race). */
const reservedForDay = new WeakMap<Store, Map<string, number>>()

/**
 * create-id-race: the day's next id is read when a create arrives and claimed once its storage
 * write is done, so a second create for the same user and day arriving meanwhile reads the same id;
 * the later write replaces the earlier activity.
 */
export async function createRacingForTheId(store: Store, draft: Omit<ActivityDraft, 'modifiedAt'>): Promise<Activity> {
  const reserved = reservedForDay.get(store) ?? new Map<string, number>()
  reservedForDay.set(store, reserved)
  const day = `${draft.owner}:${Math.floor(draft.startTime / DAY_MS)}`
  const seq = reserved.get(day) ?? store.reserveSeq()
  reserved.set(day, seq)
  await sleep(STORAGE_MS)
  reserved.delete(day)
  return store.createAs(seq, draft)
}

/**
 * A write that reads the whole activity when it arrives and, after its storage write, puts that copy
 * back before applying its own change: whatever another write changed meanwhile is lost.
 * `edit-overwrites-live-update` does this on the edit route (which waits twice as long), `live-updates-lost-update`
 * on the live-update route for the path.
 */
export async function writeOverStaleCopy<T>(
  call: Call,
  activity: Activity,
  waitMs: number,
  write: () => T,
): Promise<T> {
  const copy = structuredClone(activity)
  await sleep(waitMs)
  if (call.server.faults.is('live-updates-lost-update')) activity.path = copy.path
  else Object.assign(activity, copy)
  return write()
}

/** Under edit-overwrites-live-update, the live update's storage write: correct, but it takes STORAGE_MS too. */
export async function afterStorage<T>(write: () => T): Promise<T> {
  await sleep(STORAGE_MS)
  return write()
}
