// §4 rule 1 on existing activities. Start scopes bracket the day the server itself displays as the
// activity's start (§2.2 start times carry no zone, so the display is the only reference): an
// activity shown at 02:00:00 on the 5th is on the 5th, whatever zone the server keeps. Modification
// scopes bracket the day of the activity's own Last-Modified (GMT), a day wider on each side since
// the spec does not say in which zone a modification date is taken. Each read has one bound under
// test; the other is a day further out, so a failure names the bound that broke.
import { addDays, dayOf, itemsNotAList, lastSegment } from '../feed-items.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import type { SampledActivity } from '../pick-sample.js'
import { describeSampled, nothingSampled, type SurveyCheck, type SurveyFacts } from '../survey-facts.js'
import { parseSpecTime } from '../../../validation/time-formats.js'
import { FEED_PATH } from '../../paths.js'

interface ScopeRead {
  readonly rule: string
  readonly query: Readonly<Record<string, string>>
  readonly listed: boolean
  /** What the scope is, in words, for the step name and message. */
  readonly words: string
}

export const checkDateScopes: SurveyCheck = async (facts) => {
  const started = performance.now()
  const steps: SurveyStep[] = []
  const page = facts.sample.length > 0 ? await pageRoom(facts) : { pageSize: 0 }
  for (const sampled of facts.sample) {
    for (const read of startReads(sampled)) steps.push(await judge(facts, sampled, read, page))
    for (const read of modifiedReads(sampled)) steps.push(await judge(facts, sampled, read, page))
    if (sampled.lastModifiedDoubt) {
      const step = new SurveyStep(`modification scopes around ${sampled.item.uri}`, surveySource('date-scopes'), [
        'SCOPE-MODIFIED-NO-EARLIER-THAN',
        'SCOPE-MODIFIED-NO-LATER-THAN',
      ])
      step.skip(sampled.lastModifiedDoubt)
      steps.push(step)
    }
  }
  return surveyScenario(
    {
      id: 'survey-date-scopes',
      title:
        "Date scopes around each sampled existing activity's displayed start day and Last-Modified day list it when they cover it, and only then",
      rules: [
        'SCOPE-NO-EARLIER-THAN',
        'SCOPE-NO-LATER-THAN',
        'SCOPE-MODIFIED-NO-EARLIER-THAN',
        'SCOPE-MODIFIED-NO-LATER-THAN',
      ],
    },
    steps,
    started,
    nothingSampled(facts),
  )
}

function startReads(sampled: SampledActivity): ScopeRead[] {
  const shown = sampled.activity.start_time
  const start = typeof shown === 'string' ? parseSpecTime(shown) : undefined
  if (start === undefined) return []
  const day = dayOf(start)
  const range = (from: number, to: number) => ({ noEarlierThan: addDays(day, from), noLaterThan: addDays(day, to) })
  return [
    {
      rule: 'SCOPE-NO-EARLIER-THAN',
      query: range(0, 1),
      listed: true,
      words: `its displayed start day ${day} and the next`,
    },
    {
      rule: 'SCOPE-NO-LATER-THAN',
      query: range(-1, 0),
      listed: true,
      words: `the day before its displayed start day ${day} and that day`,
    },
    {
      rule: 'SCOPE-NO-EARLIER-THAN',
      query: range(1, 2),
      listed: false,
      words: `the two days after its displayed start day ${day}`,
    },
    {
      rule: 'SCOPE-NO-LATER-THAN',
      query: range(-2, -1),
      listed: false,
      words: `the two days before its displayed start day ${day}`,
    },
  ]
}

function modifiedReads(sampled: SampledActivity): ScopeRead[] {
  if (sampled.lastModified === undefined) return []
  const day = dayOf(sampled.lastModified)
  return [
    {
      rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
      query: { modifiedNoEarlierThan: addDays(day, -1) },
      listed: true,
      words: `modified no earlier than the day before its Last-Modified day ${day}`,
    },
    {
      rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
      query: { modifiedNoLaterThan: addDays(day, 1) },
      listed: true,
      words: `modified no later than the day after its Last-Modified day ${day}`,
    },
    {
      rule: 'SCOPE-MODIFIED-NO-EARLIER-THAN',
      query: { modifiedNoEarlierThan: addDays(day, 2) },
      listed: false,
      words: `modified no earlier than two days after its Last-Modified day ${day}`,
    },
    {
      rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
      query: { modifiedNoLaterThan: addDays(day, -2) },
      listed: false,
      words: `modified no later than two days before its Last-Modified day ${day}`,
    },
  ]
}

interface PageRoom {
  /** Room for every activity of the walk, so a scope that covers the activity cannot leave it out for lack of room. */
  readonly pageSize: number
  /** How many items an unscoped page of that size held, when fewer than it should: the server's own cap. */
  readonly cap?: number
}

/** One unscoped read with the large pageSize: a server that cuts such pages short would cut scoped ones too. */
async function pageRoom(facts: SurveyFacts): Promise<PageRoom> {
  const pageSize = facts.walk.items.length + 1
  const exchange = await facts.reader.send({
    method: 'GET',
    target: FEED_PATH,
    query: { pageSize: String(pageSize) },
    accept: 'FitnessActivityFeed',
  })
  const items = (exchange.body as { items?: unknown } | undefined)?.items
  const held = Array.isArray(items) ? items.length : 0
  return held < facts.walk.items.length ? { pageSize, cap: held } : { pageSize }
}

async function judge(
  facts: SurveyFacts,
  sampled: SampledActivity,
  read: ScopeRead,
  room: PageRoom,
): Promise<SurveyStep> {
  const step = new SurveyStep(
    `the feed scoped to ${read.words} ${read.listed ? 'lists' : 'leaves out'} ${describeSampled(sampled)}`,
    surveySource('date-scopes'),
    [read.rule],
  )
  const { pageSize } = room
  const exchange = step.show(
    await facts.reader.send({
      method: 'GET',
      target: FEED_PATH,
      query: { ...read.query, pageSize: String(pageSize) },
      accept: 'FitnessActivityFeed',
    }),
  )
  if (exchange.error) return step
  const items = (exchange.body as { items?: unknown } | undefined)?.items
  if (exchange.status !== 200) {
    step.check({
      ok: false,
      rule: read.rule,
      target: 'status',
      matcher: 'equals',
      expected: 200,
      actual: exchange.status,
      message: `a scoped feed read (§4 rule 1) answered ${exchange.status}`,
    })
    return step
  }
  if (!Array.isArray(items)) {
    step.check(itemsNotAList(items))
    return step
  }
  const ids = items.map((item) =>
    typeof item === 'object' && item !== null && typeof (item as { uri?: unknown }).uri === 'string'
      ? lastSegment((item as { uri: string }).uri)
      : undefined,
  )
  const listed = ids.includes(sampled.item.id)
  if (read.listed && !listed && (items.length >= pageSize || (room.cap !== undefined && items.length >= room.cap))) {
    step.skip(
      `the scoped page is full (${items.length} items for pageSize ${pageSize}${room.cap !== undefined ? `; an unscoped page of that size held only ${room.cap}` : ''}), so leaving the activity out may be paging, not the scope`,
    )
    return step
  }
  const ok = listed === read.listed
  const scope = Object.entries(read.query)
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  step.check({
    ok,
    rule: read.rule,
    target: 'items[*].uri',
    matcher: read.listed ? 'contains' : 'notContains',
    expected: sampled.item.uri,
    actual: `${items.length} items`,
    message: ok
      ? `the scope ${read.listed ? 'lists' : 'leaves out'} the activity`
      : read.listed
        ? `${scope} covers the activity (start ${String(sampled.activity.start_time)}, Last-Modified ${sampled.read.headers['last-modified'] ?? '?'}), yet the scoped feed of ${items.length} items leaves it out (§4 rule 1)`
        : `${scope} does not cover the activity (start ${String(sampled.activity.start_time)}, Last-Modified ${sampled.read.headers['last-modified'] ?? '?'}), yet the scoped feed lists it (§4 rule 1)`,
  })
  return step
}
