// One server instance's data: users, activities, deletions and change times. Each
// startReferenceServer call gets its own Store, so servers in one process never share state.
import { createDemoUsers } from '../data/demo-accounts.js'
import { formatActivityId, type IdStyle } from './ids.js'
import type { Activity, User, UserKey } from './model.js'
import { seedActivities, type ActivityDraft } from '../data/seed.js'

export type Clock = () => number

/** Oldest first; equal start times fall back to creation order so the order is total. */
function compareChronologically(a: Activity, b: Activity): number {
  return a.startTime - b.startTime || a.seq - b.seq
}

export class Store {
  private readonly activities = new Map<string, Activity>()
  /** Deleted ids and their owner: other-choices answers 410 for them (modes.ts). */
  private readonly deleted = new Map<string, UserKey>()
  private readonly lastDeleteAt = new Map<UserKey, number>()
  private readonly deletedRecords = new Map<string, Activity>()
  /** Deleted activities a mutant keeps listing in the feed (delete-leaves-feed-item). */
  private readonly stillListed = new Map<string, Activity>()
  private readonly users = createDemoUsers()
  private nextSeq = 1

  constructor(
    private readonly idStyle: IdStyle,
    private readonly now: Clock,
    seed: readonly ActivityDraft[] = seedActivities(),
  ) {
    for (const draft of seed) this.insert(draft)
  }

  user(key: UserKey): User {
    const user = this.users.get(key)
    if (!user) throw new Error(`no demo user ${key}`)
    return user
  }

  activity(id: string): Activity | undefined {
    return this.activities.get(id)
  }

  /** The user's deleted activities as they were (for a mutant). */
  deletedActivitiesOf(owner: UserKey): Activity[] {
    return [...this.deletedRecords.values()].filter((activity) => activity.owner === owner)
  }

  /** A deleted activity as it was, or undefined (for mutants). */
  deletedRecord(id: string): Activity | undefined {
    return this.deletedRecords.get(id)
  }

  /** Puts a deleted activity back (for a mutant only: a repeated DELETE that restores). */
  restore(activity: Activity): void {
    this.deleted.delete(activity.id)
    this.deletedRecords.delete(activity.id)
    this.activities.set(activity.id, activity)
  }

  /** The owner of a deleted activity, or undefined when the id was never deleted. */
  deletedOwner(id: string): UserKey | undefined {
    return this.deleted.get(id)
  }

  /** A user's activities, oldest first. */
  activitiesOf(owner: UserKey): Activity[] {
    return this.allActivities().filter((activity) => activity.owner === owner)
  }

  /** Every user's activities, oldest first (a mutant's feed shows them all). */
  allActivities(): Activity[] {
    return [...this.activities.values(), ...this.stillListed.values()].sort(compareChronologically)
  }

  /** The same user's activity that started just before this one (§2.3 `previous`). */
  previousOf(activity: Activity): Activity | undefined {
    let best: Activity | undefined
    for (const other of this.activities.values()) {
      if (other.owner !== activity.owner || compareChronologically(other, activity) >= 0) continue
      if (!best || compareChronologically(other, best) > 0) best = other
    }
    return best
  }

  create(draft: Omit<ActivityDraft, 'modifiedAt'>): Activity {
    return this.insert({ ...draft, modifiedAt: this.changeStamp() })
  }

  /** For a mutant only (create-id-race): a sequence number taken now, for createAs to store later. */
  reserveSeq(): number {
    return this.nextSeq++
  }

  /** For a mutant only (create-id-race): stores under a reserved sequence number, replacing whatever holds its id. */
  createAs(seq: number, draft: Omit<ActivityDraft, 'modifiedAt'>): Activity {
    const activity: Activity = {
      ...draft,
      modifiedAt: this.changeStamp(),
      id: formatActivityId(this.idStyle, seq),
      seq,
    }
    this.activities.set(activity.id, activity)
    return activity
  }

  /** Records that an activity changed (edit, live update). */
  touch(activity: Activity): void {
    activity.modifiedAt = this.changeStamp()
  }

  /** `keepListed` is for a mutant only: the activity stays in the feed, though reads no longer find it. */
  remove(activity: Activity, keepListed = false): void {
    // The deletion is a change of the feed (§4 rule 3): it moves the feed's change time to now.
    const stamp = this.changeStamp()
    this.activities.delete(activity.id)
    this.deleted.set(activity.id, activity.owner)
    this.deletedRecords.set(activity.id, activity)
    this.lastDeleteAt.set(activity.owner, stamp)
    if (keepListed) this.stillListed.set(activity.id, activity)
  }

  /** When the user's feed last changed: the latest activity change or deletion (§4 rule 3). */
  feedChangedAt(owner: UserKey): number {
    return Math.max(this.lastDeleteAt.get(owner) ?? 0, this.latestActivityChange(owner))
  }

  /** The latest change of an activity the user still has; deletions are not counted. */
  latestActivityChange(owner: UserKey): number {
    let latest = 0
    for (const activity of this.activities.values()) {
      if (activity.owner === owner && activity.modifiedAt > latest) latest = activity.modifiedAt
    }
    return latest
  }

  /**
   * The time to stamp a change with: now. Never later, so no Last-Modified is ever later than the
   * Date of the same answer (RFC 9110 §8.8.2.1: an origin server must not send a Last-Modified later
   * than its Date), and a client may revalidate with the Date of any read taken after the change
   * (§4 rule 3 "has not changed since then"). Last-Modified shows the second; two changes within one
   * second share it, which makes it a weak validator for that second (RFC 9110 §8.8.2.2).
   */
  private changeStamp(): number {
    return this.now()
  }

  private insert(draft: ActivityDraft): Activity {
    const seq = this.nextSeq++
    const activity: Activity = { ...draft, id: formatActivityId(this.idStyle, seq), seq }
    this.activities.set(activity.id, activity)
    return activity
  }
}
