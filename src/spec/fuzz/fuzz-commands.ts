// The fuzzer's commands (fast-check model-based testing). Each command, run against the model,
// appends the steps of the suite's own scenario format (docs/scenario-format.md) that perform it and
// check its answer against the model. A sequence is thus one scenario: what runs is what a shrunk
// failure writes to its reproduction file.
//
// Only what the spec states is asserted: status codes the spec names (§4), media types (§1 rule 3),
// schemas (§2), what a read returns after a create, edit, live update or delete (§4 rules 5–7), the
// scoped feed (§4 rule 1, §2.2), conditional reads (§4 rule 3). Unnamed error codes are checked as
// classes only (§7 rules 5–6); which page a scope returns, item order and the maximum page size stay open.
import fc from 'fast-check'
import {
  activityEditBody,
  anyCodePoint,
  invalidBody,
  liveUpdateBody,
  newActivityBody,
  oversizeBody,
  profileEditBody,
  type InvalidBody,
  type PathPoint,
} from './body-arbitraries.js'
import { FUZZ_DAYS, FUZZ_LOOSE_DAY, FUZZ_MONTH } from './fuzz-days.js'
import {
  conditionalAnswer,
  liveActivities,
  pick,
  recordChange,
  type FuzzModel,
  type ModelActivity,
} from './fuzz-model.js'
import type { ScenarioDraft, StepData } from '../../fuzz/scenario-draft.js'
import { ENTRY_POINT_PATH, FEED_PATH, PROFILE_PATH } from '../paths.js'

type FuzzCommand = fc.Command<FuzzModel, ScenarioDraft>

const REFUSED_REASON =
  'the server refused (4xx) a body within the domain the spec allows; its limits are not shown (§2.7, §8), so the sequence stops here'
const refusedSkip = { checks: [{ path: 'status', statusClass: '4xx' }], reason: REFUSED_REASON }
const notServerError = { path: 'status', notStatusClass: '5xx', rule: 'ERROR-CLIENT-NOT-5XX' }
/** At most this many points are checked one by one (a long route still has its length checked). */
const POINTS_CHECKED = 12

const dayText = (day: number): string =>
  `\${run.farYear}-${String(FUZZ_MONTH).padStart(2, '0')}-${String(day).padStart(2, '0')}`
const todayPlus = (days: number): string => (days === 0 ? '${run.now | ymd}' : `\${run.now | addDays(${days}) | ymd}`)

/** The base class: `toString` is what fast-check prints for a counterexample. */
abstract class Command implements FuzzCommand {
  abstract check(model: Readonly<FuzzModel>): boolean
  abstract run(model: FuzzModel, draft: ScenarioDraft): void
  abstract toString(): string
}

class CreateActivity extends Command {
  constructor(
    readonly day: number,
    readonly body: ReturnType<typeof newActivityBody> extends fc.Arbitrary<infer B> ? B : never,
  ) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => !model.readOnly && model.activities.length < 8
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const name = `a${model.activities.length + 1}`
    const seconds = secondsOf(this.body.start_time)
    draft.steps.push({
      name: `create ${name}, starting on ${FUZZ_MONTH}/${this.day} of the far year`,
      request: { method: 'POST', url: FEED_PATH, contentType: 'NewFitnessActivity', json: this.body },
      creates: 'headers.location',
      skipIf: refusedSkip,
      expect: {
        noBody: true,
        checks: [
          { path: 'status', equals: 201, rule: 'CREATE-STATUS' },
          { path: 'headers.location', relativeUri: true, rule: 'CREATE-LOCATION' },
        ],
      },
      capture: { [name]: 'headers.location', [`${name}Id`]: 'headers.location | lastSegment' },
      rule: 'CREATE-NO-BODY',
    })
    model.activities.push({
      name,
      day: this.day,
      seconds,
      type: this.body.type,
      notes: this.body.notes,
      notesRule: 'CREATE-RECORDS',
      path: [...(this.body.path ?? [])],
      pathRule: 'CREATE-RECORDS',
      deleted: false,
      changes: 0,
      lastChangeTick: model.tick,
      changeKnown: true,
    })
    // §4 rule 5: what a create records is read back at once (later reads check it again after other writes).
    new ReadActivity(model.activities.length - 1).run(model, draft)
  }
  toString = (): string => `create(${this.day}, ${JSON.stringify(this.body)})`
}

class ReadActivity extends Command {
  constructor(readonly index: number) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => model.activities.length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const activity = pick(model.activities, this.index)
    if (activity.deleted) {
      draft.steps.push(readDeleted(activity, 'GET'))
      return
    }
    const capture = `lm${++model.counter}`
    draft.steps.push({
      name: `read ${activity.name}`,
      request: { method: 'GET', url: `\${${activity.name}}`, accept: 'FitnessActivity' },
      expect: {
        mediaType: 'FitnessActivity',
        schema: 'FitnessActivity',
        checks: [
          { path: 'status', equals: 200, rule: 'ACTIVITY-READ' },
          ...contentChecks(activity),
          { path: 'headers.last-modified', httpDate: true, rule: 'LAST-MODIFIED-READ' },
        ],
      },
      capture: { [capture]: 'headers.last-modified' },
    })
    model.captures.push({ name: capture, activity, tick: model.tick, changes: activity.changes })
  }
  toString = (): string => `read(${this.index})`
}

class HeadActivity extends Command {
  constructor(readonly index: number) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => model.activities.length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const activity = pick(model.activities, this.index)
    if (activity.deleted) {
      draft.steps.push(readDeleted(activity, 'HEAD'))
      return
    }
    draft.steps.push({
      name: `HEAD ${activity.name}`,
      rule: 'HEAD-NO-BODY',
      request: { method: 'HEAD', url: `\${${activity.name}}`, accept: 'FitnessActivity' },
      expect: {
        noBody: true,
        checks: [
          { path: 'status', equals: 200, rule: 'HEAD-HEADERS' },
          { path: 'headers.content-type', mediaType: 'FitnessActivity', rule: ['HEAD-HEADERS', 'MEDIA-TYPE-RESPONSE'] },
          { path: 'headers.content-length', matches: '^[0-9]+$', rule: 'HEAD-HEADERS' },
          { path: 'headers.last-modified', httpDate: true, rule: 'HEAD-HEADERS' },
        ],
      },
    })
  }
  toString = (): string => `head(${this.index})`
}

class EditActivity extends Command {
  constructor(
    readonly index: number,
    readonly body: { notes: string; uri?: string; userID?: number },
  ) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => liveActivities(model as FuzzModel).length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const activity = pick(liveActivities(model), this.index)
    const checks: unknown[] = [
      { path: 'status', equals: 200, rule: 'EDIT-STATUS' },
      { path: 'body.notes', equals: this.body.notes, rule: ['EDIT-APPLIED', 'EDIT-FULL-RESPONSE'] },
      { path: 'headers.last-modified', httpDate: true, rule: 'LAST-MODIFIED-EDIT' },
    ]
    if (this.body.uri !== undefined || this.body.userID !== undefined)
      checks.push({
        path: 'body.uri | lastSegment',
        equals: `\${${activity.name}Id}`,
        rule: 'EDIT-NON-EDITABLE-IGNORED',
      })
    draft.steps.push({
      name: `edit the notes of ${activity.name}${this.body.uri !== undefined || this.body.userID !== undefined ? ', sending non-editable fields too' : ''}`,
      request: {
        method: 'PUT',
        url: `\${${activity.name}}`,
        contentType: 'FitnessActivityEdit',
        accept: 'FitnessActivity',
        json: this.body,
      },
      skipIf: refusedSkip,
      expect: { mediaType: 'FitnessActivity', schema: 'FitnessActivity', checks },
    })
    recordChange(model, activity, activity.notes !== this.body.notes)
    activity.notes = this.body.notes
    activity.notesRule = 'EDIT-APPLIED'
  }
  toString = (): string => `edit(${this.index}, ${JSON.stringify(this.body)})`
}

class LiveUpdate extends Command {
  constructor(
    readonly index: number,
    readonly body: { path: PathPoint[] },
  ) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => liveActivities(model as FuzzModel).length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const activity = pick(liveActivities(model), this.index)
    draft.steps.push({
      name: `add ${this.body.path.length} point(s) to ${activity.name} (live update)`,
      rule: 'LIVE-UPDATE-STATUS',
      request: {
        method: 'POST',
        url: `\${${activity.name}}`,
        contentType: 'LiveFitnessActivityUpdate',
        json: this.body,
      },
      skipIf: refusedSkip,
      expect: { noBody: true, checks: [{ path: 'status', equals: 204, rule: 'LIVE-UPDATE-STATUS' }] },
    })
    recordChange(model, activity, true)
    activity.path = activity.path ? [...activity.path, ...this.body.path] : undefined
    activity.pathRule = 'LIVE-UPDATE-ADDS-POINTS'
  }
  toString = (): string => `liveUpdate(${this.index}, ${JSON.stringify(this.body)})`
}

class DeleteActivity extends Command {
  constructor(readonly index: number) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => liveActivities(model as FuzzModel).length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const activity = pick(liveActivities(model), this.index)
    draft.steps.push({
      name: `delete ${activity.name}`,
      rule: 'DELETE-STATUS',
      request: { method: 'DELETE', url: `\${${activity.name}}` },
      expect: { noBody: true, checks: [{ path: 'status', equals: 204, rule: 'DELETE-STATUS' }] },
    })
    activity.deleted = true
  }
  toString = (): string => `delete(${this.index})`
}

/** An invalid write: a body that is not JSON must be refused and change nothing; anything else must not be answered 5xx. */
class InvalidWrite extends Command {
  constructor(
    readonly target: 'create' | 'edit' | 'live-update' | 'profile',
    readonly index: number,
    readonly body: InvalidBody,
  ) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean =>
    !model.readOnly &&
    (this.target === 'create' || this.target === 'profile' || liveActivities(model as FuzzModel).length > 0)
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const refused = this.body.kind === 'not-json'
    const activity =
      this.target === 'edit' || this.target === 'live-update' ? pick(liveActivities(model), this.index) : undefined
    const url = activity ? `\${${activity.name}}` : this.target === 'profile' ? PROFILE_PATH : FEED_PATH
    const representation = {
      create: 'NewFitnessActivity',
      edit: 'FitnessActivityEdit',
      'live-update': 'LiveFitnessActivityUpdate',
      profile: 'ProfileEdit',
    }[this.target]
    if (this.target === 'profile') ensureProfileLearned(model, draft)
    const checks: unknown[] = refused
      ? [{ path: 'status', statusClass: '4xx', rule: 'ERROR-CLIENT-NOT-5XX' }]
      : [notServerError]
    if (refused && this.target === 'create')
      checks.push({ path: 'headers.location', absent: true, rule: 'ERROR-BAD-BODY-CREATES-NOTHING' })
    draft.steps.push({
      name: `${this.target} with a body that is ${this.body.kind.replaceAll('-', ' ')} (${refused ? 'refused, changes nothing' : 'not answered 5xx'})`,
      request: {
        method: this.target === 'edit' || this.target === 'profile' ? 'PUT' : 'POST',
        url,
        ...(this.body.contentType
          ? { headers: { 'Content-Type': this.body.contentType } }
          : { contentType: representation }),
        body: this.body.text,
      },
      // What a server accepts from a body the spec does not cover is deleted with the rest.
      creates: this.target === 'create' ? 'headers.location' : undefined,
      expect: { checks },
    })
    if (!refused && activity) {
      // Accepted or not, its notes and points are no longer known.
      recordChange(model, activity, false)
      activity.notes = undefined
      activity.path = undefined
    }
  }
  toString = (): string =>
    `invalid(${this.target}, ${this.index}, ${JSON.stringify({ ...this.body, text: this.body.text.length > 200 ? `${this.body.text.slice(0, 200)}…` : this.body.text })})`
}

class ConditionalRead extends Command {
  constructor(readonly index: number) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => model.captures.some((capture) => !capture.activity.deleted)
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const capture = pick(
      model.captures.filter((each) => !each.activity.deleted),
      this.index,
    )
    const answer = conditionalAnswer(model, capture)
    const { activity } = capture
    const request = {
      method: 'GET',
      url: `\${${activity.name}}`,
      accept: 'FitnessActivity',
      headers: { 'If-Modified-Since': `\${${capture.name}}` },
      wire: true,
    }
    const name = `read ${activity.name} with If-Modified-Since: ${capture.name}`
    if (answer === 304) {
      draft.steps.push({
        name: `${name} (unchanged since: 304)`,
        rule: 'COND-ACTIVITY-NOT-MODIFIED',
        request,
        expect: { noBody: true, checks: [{ path: 'status', equals: 304 }] },
      })
    } else if (answer === 200) {
      draft.steps.push({
        name: `${name} (changed a second after it: the normal response)`,
        rule: 'COND-ACTIVITY-MODIFIED',
        request,
        expect: { mediaType: 'FitnessActivity', checks: [{ path: 'status', equals: 200 }, ...contentChecks(activity)] },
      })
    } else {
      draft.steps.push({
        name: `${name} (within the second of a change: 200 or 304)`,
        rule: 'ACTIVITY-READ',
        request,
        expect: { checks: [{ path: 'status', oneOf: [200, 304] }] },
      })
    }
  }
  toString = (): string => `conditionalRead(${this.index})`
}

class Wait extends Command {
  check = (model: Readonly<FuzzModel>): boolean => !model.readOnly && model.tick < 1 && model.captures.length > 0
  run(model: FuzzModel, draft: ScenarioDraft): void {
    draft.steps.push({ name: 'wait more than a second (HTTP dates have one-second resolution)', wait: 1100 })
    model.tick += 1
  }
  toString = (): string => 'wait()'
}

interface ScopeChoice {
  readonly from: number
  readonly to: number
  /** Days from today (UTC) of the modification bounds, or null for none. */
  readonly modifiedFrom: number | null
  readonly modifiedTo: number | null
  readonly pageSize: number | null
}

/**
 * A feed read scoped to days of the fuzz month (and maybe the modification date): exactly the model's activities in
 * scope, up to the page size.
 */
class ScopedFeedRead extends Command {
  constructor(readonly scope: ScopeChoice) {
    super()
  }
  check = (): boolean => true
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const { from, to, modifiedFrom, modifiedTo, pageSize } = this.scope
    const query: Record<string, string> = { noEarlierThan: dayText(from), noLaterThan: dayText(to) }
    if (modifiedFrom !== null) query['modifiedNoEarlierThan'] = todayPlus(modifiedFrom)
    if (modifiedTo !== null) query['modifiedNoLaterThan'] = todayPlus(modifiedTo)
    if (pageSize !== null) query['pageSize'] = String(pageSize)
    // Everything the fuzzer wrote was modified today: the modification bounds keep all of it or none.
    const modifiedKeepsAll = (modifiedFrom ?? -1) <= 0 && (modifiedTo ?? 1) >= 0
    const scopeRules = [
      'SCOPE-NO-EARLIER-THAN',
      'SCOPE-NO-LATER-THAN',
      ...(modifiedFrom !== null ? ['SCOPE-MODIFIED-NO-EARLIER-THAN'] : []),
      ...(modifiedTo !== null ? ['SCOPE-MODIFIED-NO-LATER-THAN'] : []),
    ]
    const checks: unknown[] = [
      { path: 'status', equals: 200, rule: 'FEED-READ' },
      { path: 'body.previous', absent: true, rule: 'FEED-SCOPED-NO-PREVIOUS' },
      { path: 'body.size', equals: '${body.items | length}', rule: 'FEED-SCOPED-SIZE' },
    ]
    if (!model.readOnly) {
      const inScope = (activity: ModelActivity): boolean =>
        !activity.deleted && modifiedKeepsAll && activity.day >= from && activity.day <= to
      const expected = model.activities.filter(inScope)
      const limit = pageSize ?? 25
      const ids = (list: readonly ModelActivity[]): string[] => list.map((activity) => `\${${activity.name}Id}`)
      checks.push({
        path: 'body.items | length',
        equals: Math.min(expected.length, limit),
        rule: expected.length >= limit ? 'FEED-PAGE-SIZE' : scopeRules,
      })
      if (expected.length > 0)
        checks.push({ path: 'body.items[*].uri | lastSegment', every: { oneOf: ids(expected) }, rule: scopeRules })
      if (expected.length <= limit)
        for (const id of ids(expected))
          checks.push({ path: 'body.items[*].uri | lastSegment', contains: id, rule: scopeRules })
      for (const activity of model.activities.filter((each) => !inScope(each))) {
        checks.push({
          path: 'body.items[*].uri | lastSegment',
          notContains: `\${${activity.name}Id}`,
          rule: activity.deleted ? 'DELETE-REMOVES' : scopeRules,
        })
      }
    }
    draft.steps.push({
      name: `feed scoped to ${FUZZ_MONTH}/${from}–${FUZZ_MONTH}/${to}${modifiedFrom !== null || modifiedTo !== null ? `, modified from ${modifiedFrom ?? '–'} to ${modifiedTo ?? '–'} days from today` : ''}${pageSize !== null ? `, pageSize ${pageSize}` : ''}`,
      request: { method: 'GET', url: FEED_PATH, query, accept: 'FitnessActivityFeed' },
      expect: { mediaType: 'FitnessActivityFeed', schema: 'FitnessActivityFeed', checks },
    })
  }
  toString = (): string => `scopedFeed(${JSON.stringify(this.scope)})`
}

/** Walks the whole feed by `previous`: every page within its size, nothing twice, every live activity met, no deleted one. */
class FeedWalk extends Command {
  constructor(readonly pageSize: number | null) {
    super()
  }
  check = (): boolean => true
  run(model: FuzzModel, draft: ScenarioDraft): void {
    const n = ++model.counter
    const ids = `walk${n}`
    const limit = this.pageSize ?? 25
    draft.steps.push({
      name: `walk the feed by previous${this.pageSize !== null ? ` with pageSize ${this.pageSize}` : ''}`,
      request: {
        method: 'GET',
        url: FEED_PATH,
        query: this.pageSize === null ? undefined : { pageSize: String(this.pageSize) },
        accept: 'FitnessActivityFeed',
      },
      follow: { next: 'body.previous', maxPages: 400, collect: { [ids]: 'body.items[*].uri | lastSegment' } },
      expect: {
        mediaType: 'FitnessActivityFeed',
        schema: 'FitnessActivityFeed',
        checks: [
          { path: 'status', equals: 200, rule: 'FEED-READ' },
          {
            path: 'body.items | length',
            lte: limit,
            rule: this.pageSize !== null ? 'FEED-PAGE-SIZE' : 'FEED-DEFAULT-PAGE-SIZE',
          },
          { path: 'body.size', gte: '${body.items | length}', rule: 'FEED-SIZE-TOTAL' },
        ],
      },
      capture: { [`total${n}`]: 'body.size' },
    })
    const checks: unknown[] = [
      { path: `${ids} | length`, equals: `\${${ids} | unique | length}`, rule: 'FEED-WALK-COMPLETE' },
    ]
    if (!model.readOnly) {
      checks.push({ path: `${ids} | length`, equals: `\${total${n}}`, rule: 'FEED-SIZE-TOTAL' })
      for (const activity of model.activities) {
        checks.push(
          activity.deleted
            ? { path: ids, notContains: `\${${activity.name}Id}`, rule: 'DELETE-REMOVES' }
            : { path: ids, contains: `\${${activity.name}Id}`, rule: 'FEED-WALK-COMPLETE' },
        )
      }
    }
    draft.steps.push({ name: 'the walk met every activity once', expect: { checks } })
  }
  toString = (): string => `feedWalk(${this.pageSize})`
}

class ReadUser extends Command {
  check = (): boolean => true
  run(_model: FuzzModel, draft: ScenarioDraft): void {
    draft.steps.push({
      name: 'read the entry point',
      rule: 'USER-READ',
      request: { method: 'GET', url: ENTRY_POINT_PATH, accept: 'User' },
      expect: { status: 200, mediaType: 'User', schema: 'User' },
    })
  }
  toString = (): string => 'readUser()'
}

/** A read of an activity that never existed, by an id of any shape: not 2xx, and never 5xx. */
class ReadUnknown extends Command {
  constructor(readonly id: string) {
    super()
  }
  check = (): boolean => true
  run(_model: FuzzModel, draft: ScenarioDraft): void {
    draft.steps.push({
      name: 'read an activity that does not exist',
      request: { method: 'GET', url: `${FEED_PATH}/${this.id}`, accept: 'FitnessActivity' },
      expect: { checks: [notServerError] },
    })
  }
  toString = (): string => `readUnknown(${JSON.stringify(this.id)})`
}

class EditProfile extends Command {
  constructor(readonly body: { athlete_type: string }) {
    super()
  }
  check = (model: Readonly<FuzzModel>): boolean => !model.readOnly
  run(model: FuzzModel, draft: ScenarioDraft): void {
    ensureProfileLearned(model, draft)
    draft.steps.push({
      name: 'edit the athlete_type of the profile',
      request: { method: 'PUT', url: PROFILE_PATH, contentType: 'ProfileEdit', accept: 'Profile', json: this.body },
      skipIf: refusedSkip,
      expect: {
        mediaType: 'Profile',
        schema: 'Profile',
        checks: [
          { path: 'status', equals: 200, rule: 'PROFILE-EDIT-APPLIED' },
          { path: 'body.athlete_type', equals: this.body.athlete_type, rule: 'PROFILE-EDIT-APPLIED' },
          { path: 'body | keys', minLength: 2, rule: 'PROFILE-EDIT-FULL' },
        ],
      },
    })
  }
  toString = (): string => `editProfile(${JSON.stringify(this.body)})`
}

class RestoreProfile extends Command {
  check = (model: Readonly<FuzzModel>): boolean => model.profileLearned
  run(_model: FuzzModel, draft: ScenarioDraft): void {
    draft.steps.push({
      name: 'set the profile back',
      request: { method: 'PUT', url: PROFILE_PATH, contentType: 'ProfileEdit', accept: 'Profile', json: '${restore}' },
      expect: { checks: [{ path: 'status', equals: 200, rule: 'PROFILE-EDIT-APPLIED' }] },
    })
  }
  toString = (): string => 'restoreProfile()'
}

/** Before the first profile write: learn the value to restore (an empty edit), and restore it in the cleanup whatever happens. */
function ensureProfileLearned(model: FuzzModel, draft: ScenarioDraft): void {
  if (model.profileLearned) return
  model.profileLearned = true
  draft.steps.push({
    name: 'an edit with no field to change, to learn the athlete_type to restore',
    request: { method: 'PUT', url: PROFILE_PATH, contentType: 'ProfileEdit', accept: 'Profile', json: {} },
    skipIf: {
      checks: [{ path: 'status', statusClass: '4xx' }],
      reason:
        'the server refuses an empty profile edit, so the value to restore cannot be learned (GET /profile is not in §4)',
    },
    capture: { restore: 'body | pick(athlete_type) ?? config | pick(athlete_type)' },
  })
  draft.cleanup.push({
    name: 'set the profile back',
    request: { method: 'PUT', url: PROFILE_PATH, contentType: 'ProfileEdit', accept: 'Profile', json: '${restore}' },
  })
}

function readDeleted(activity: ModelActivity, method: 'GET' | 'HEAD'): StepData {
  return {
    name: `${method} the deleted ${activity.name}: gone`,
    rule: 'DELETE-REMOVES',
    request: { method, url: `\${${activity.name}}`, accept: 'FitnessActivity', wire: true },
    expect: { checks: [{ path: 'status', notStatusClass: '2xx' }, notServerError] },
  }
}

/** What a read must show of an activity: the fields as last written (§4 rules 5–7). */
function contentChecks(activity: ModelActivity): unknown[] {
  const checks: unknown[] = [
    { path: 'body.uri | lastSegment', equals: `\${${activity.name}Id}`, rule: 'ACTIVITY-URI-ON-READ' },
    { path: 'body.type', equals: activity.type, rule: 'CREATE-RECORDS' },
    {
      path: 'body.start_time',
      sameInstant: `\${run.farYear | date(${FUZZ_MONTH}, ${activity.day}, ${Math.floor(activity.seconds / 3600)}, ${Math.floor(activity.seconds / 60) % 60}, ${activity.seconds % 60})}`,
      rule: 'CREATE-RECORDS',
    },
  ]
  if (activity.notes !== undefined)
    checks.push({ path: 'body.notes', equals: activity.notes, rule: activity.notesRule })
  if (activity.path !== undefined) {
    checks.push({ path: 'body.path | length', equals: activity.path.length, rule: activity.pathRule })
    for (const point of activity.path.slice(0, POINTS_CHECKED))
      checks.push({ path: 'body.path', contains: point, rule: activity.pathRule })
    for (const point of activity.path.slice(POINTS_CHECKED).slice(-POINTS_CHECKED))
      checks.push({ path: 'body.path', contains: point, rule: activity.pathRule })
  }
  return checks
}

function secondsOf(startTime: string): number {
  const [hour, minute, second] = /date\(\d+, \d+, (\d+), (\d+), (\d+)\)/.exec(startTime)!.slice(1).map(Number) as [
    number,
    number,
    number,
  ]
  return hour * 3600 + minute * 60 + second
}

const index = fc.nat({ max: 15 })
const day = fc.constantFrom(...FUZZ_DAYS)
const scope: fc.Arbitrary<ScopeChoice> = fc
  .record({
    bounds: fc.oneof(
      fc.constant<[number, number]>([FUZZ_DAYS[0], FUZZ_DAYS[FUZZ_DAYS.length - 1]!]),
      fc.tuple(day, day).map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a])),
    ),
    modified: fc.oneof(
      fc.constant([null, null]),
      fc.constant([0, 0]),
      fc.tuple(fc.constantFrom(null, -2, -1, 0, 1), fc.constantFrom(null, -1, 0, 1, 2)),
    ),
    pageSize: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10 }), fc.constantFrom(25, 100, 1000)),
  })
  .map(({ bounds, modified, pageSize }) => ({
    from: bounds[0],
    to: bounds[1],
    modifiedFrom: modified[0] ?? null,
    modifiedTo: modified[1] ?? null,
    pageSize,
  }))
const unknownId = fc.oneof(
  fc.constantFrom('999999999', '0', '-1', '', 'x'.repeat(300)),
  fc.string({ unit: anyCodePoint(), minLength: 1, maxLength: 30 }).map(encodeURIComponent),
)

const sampleCreate = {
  type: '${config.activityType}',
  start_time: `\${run.farYear | date(${FUZZ_MONTH}, ${FUZZ_LOOSE_DAY}, 12, 0, 0) | specTime}`,
  notes: '${run.marker} fuzz',
}
/** Not-JSON creates name a scoped day (a server that stores them shows up there); the others the loose day. */
const sampleRefusedCreate = {
  ...sampleCreate,
  start_time: `\${run.farYear | date(${FUZZ_MONTH}, ${FUZZ_DAYS[0]}, 12, 0, 0) | specTime}`,
}

function invalidCreate(): fc.Arbitrary<InvalidBody> {
  return fc.oneof(
    {
      weight: 10,
      arbitrary: invalidBody(sampleCreate, 'new-fitness-activity.schema.json', ['type', 'start_time']).map((body) =>
        body.kind === 'not-json'
          ? { ...body, text: body.text.replace(sampleCreate.start_time, sampleRefusedCreate.start_time) }
          : body,
      ),
    },
    { weight: 1, arbitrary: oversizeBody(sampleCreate) },
  )
}

/** The commands of a sequence; `readOnly` keeps only GET and HEAD. */
export function fuzzCommands(readOnly: boolean): fc.Arbitrary<Iterable<FuzzCommand>> {
  const reads: fc.Arbitrary<FuzzCommand>[] = [
    scope.map((choice) => new ScopedFeedRead(choice)),
    fc.oneof(fc.constant(null), fc.integer({ min: 5, max: 40 }), fc.constant(1000)).map((size) => new FeedWalk(size)),
    fc.constant(new ReadUser()),
    unknownId.map((id) => new ReadUnknown(id)),
  ]
  if (readOnly) return fc.commands(reads, { maxCommands: 12 })
  const writes: fc.Arbitrary<FuzzCommand>[] = [
    day.chain((d) => newActivityBody(d).map((body) => new CreateActivity(d, body))),
    day.chain((d) => newActivityBody(d).map((body) => new CreateActivity(d, body))),
    index.map((i) => new ReadActivity(i)),
    index.map((i) => new ReadActivity(i)),
    index.map((i) => new HeadActivity(i)),
    fc.tuple(index, activityEditBody()).map(([i, body]) => new EditActivity(i, body)),
    fc.tuple(index, liveUpdateBody()).map(([i, body]) => new LiveUpdate(i, body)),
    index.map((i) => new DeleteActivity(i)),
    index.map((i) => new ConditionalRead(i)),
    fc.constant(new Wait()),
    profileEditBody().map((body) => new EditProfile(body)),
    fc.constant(new RestoreProfile()),
    fc.tuple(index, invalidCreate()).map(([i, body]) => new InvalidWrite('create', i, body)),
    fc
      .tuple(index, invalidBody({ notes: '${run.marker} fuzz edit' }, 'fitness-activity-edit.schema.json', []))
      .map(([i, body]) => new InvalidWrite('edit', i, body)),
    fc
      .tuple(
        index,
        invalidBody(
          { path: [{ timestamp: 1, latitude: 1.5, longitude: 2.5, altitude: 3, type: 'gps' }] },
          'live-fitness-activity-update.schema.json',
          ['path'],
        ),
      )
      .map(([i, body]) => new InvalidWrite('live-update', i, body)),
    invalidBody({ athlete_type: '${config.athleteType}' }, 'profile-edit.schema.json', []).map(
      (body) => new InvalidWrite('profile', 0, body),
    ),
  ]
  return fc.commands([...reads, ...writes], { maxCommands: 25, size: 'medium' })
}
