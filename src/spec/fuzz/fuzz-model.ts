// The in-memory model of the spec's semantics that a fuzz sequence is checked against: which of the
// sequence's activities exist, what a read of each must show, and which answers a conditional read
// may get. Where the spec leaves a choice open the model keeps every allowed answer.
import type { PathPoint } from './body-arbitraries.js'

export interface ModelActivity {
  /** Variable names in the scenario: `${a1}` is its URL, `${a1Id}` the last segment of it. */
  readonly name: string
  /** Day of the fuzz month its start time falls on. */
  readonly day: number
  /** Seconds after midnight of its start time. */
  readonly seconds: number
  readonly type: string
  /** The notes as a template; undefined once an accepted invalid write may have changed them. */
  notes: string | undefined
  notesRule: string
  /** Every point it must hold; undefined once an accepted invalid write may have changed them. */
  path: PathPoint[] | undefined
  pathRule: string
  deleted: boolean
  /** Changes made to it so far, and the model tick (see FuzzModel.tick) of the last one. */
  changes: number
  lastChangeTick: number
  /** False after a change the server may or may not count (same value sent again, an accepted invalid body). */
  changeKnown: boolean
}

/** A Last-Modified captured by a read, for a later If-Modified-Since. */
export interface LastModifiedCapture {
  readonly name: string
  readonly activity: ModelActivity
  readonly tick: number
  readonly changes: number
}

export interface FuzzModel {
  readonly readOnly: boolean
  readonly activities: ModelActivity[]
  readonly captures: LastModifiedCapture[]
  /** Waits of more than a second so far: HTTP dates tell apart only changes a wait separates. */
  tick: number
  /** Whether the profile's original value has been learned (and a restore put into the cleanup). */
  profileLearned: boolean
  /** Steps emitted so far, for unique variable names. */
  counter: number
}

export function createModel(readOnly: boolean): FuzzModel {
  return { readOnly, activities: [], captures: [], tick: 0, profileLearned: false, counter: 0 }
}

export function liveActivities(model: FuzzModel): ModelActivity[] {
  return model.activities.filter((activity) => !activity.deleted)
}

/** Picks by a generated index, so a shrunk sequence keeps pointing at an activity. */
export function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length]!
}

export function recordChange(model: FuzzModel, activity: ModelActivity, known: boolean): void {
  activity.changes += 1
  activity.lastChangeTick = model.tick
  if (!known) activity.changeKnown = false
}

/**
 * §4 rule 3 at the one-second resolution of HTTP dates: 304 is required when nothing changed since
 * the captured Last-Modified and a wait has passed since the last change (so the date is not in the
 * server's future); 200 when a change came a wait after the capture. Anything nearer allows both.
 */
export function conditionalAnswer(model: FuzzModel, capture: LastModifiedCapture): 200 | 304 | 'either' {
  const { activity } = capture
  if (!activity.changeKnown) return 'either'
  if (activity.changes === capture.changes) return model.tick > activity.lastChangeTick ? 304 : 'either'
  return activity.lastChangeTick > capture.tick ? 200 : 'either'
}
