// §2.3 previous: "Link to the neighbouring earlier activity". Judged against the whole feed the
// survey walked: the activity named must be the user's, start no later, and no activity of the feed
// may start between the two (same day included). Activities that start in the same second may be in
// either order (the spec gives no tie-break). Needs the whole feed: a walk stopped at the cap skips.
import { lastSegment, type SurveyItem } from '../feed-items.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import { describeSampled, nothingSampled, type SurveyCheck } from '../survey-facts.js'

const RULE = 'ACTIVITY-PREVIOUS-NEIGHBOUR'

export const checkPreviousNeighbour: SurveyCheck = async (facts) => {
  const started = performance.now()
  const identity = {
    id: 'survey-previous-neighbour',
    title: 'The previous link of each sampled existing activity names the nearest earlier activity of the whole feed',
    rules: [RULE],
  }
  if (!facts.walk.complete)
    return surveyScenario(
      identity,
      [],
      started,
      `the feed walk did not reach the end (${facts.walk.stoppedBecause ?? 'no reason given'}), so the nearest earlier activity is not known`,
    )
  const byId = new Map(facts.walk.items.map((item) => [item.id, item]))
  const steps = facts.sample.map((sampled) => {
    const step = new SurveyStep(
      `previous of ${describeSampled(sampled)} is its nearest earlier activity`,
      surveySource('previous-neighbour'),
      [RULE],
    )
    const own = sampled.item
    if (own.start === undefined) {
      step.skip('its feed item has no readable start time to order it by')
      return step
    }
    const earlier = facts.walk.items.filter(
      (item) => item.id !== own.id && item.start !== undefined && item.start < own.start!,
    )
    const nearest = latestOf(earlier)
    const previous = sampled.activity.previous
    if (typeof previous !== 'string') {
      const ok = nearest === undefined
      step.check({
        ok,
        rule: RULE,
        target: 'previous',
        matcher: 'present',
        expected: nearest?.uri,
        actual: previous,
        message: ok
          ? 'no earlier activity, and no previous link'
          : `the activity has no previous link, but ${nearest!.uri} (${String(nearest!.item.start_time ?? nearest!.item.startTime)}) starts earlier in the same feed`,
      })
      return step
    }
    const named = byId.get(lastSegment(previous))
    if (!named) {
      step.check({
        ok: false,
        rule: RULE,
        target: 'previous',
        matcher: 'in feed',
        actual: previous,
        message: `previous names ${previous}, which is not among the ${facts.walk.items.length} activities of this user's feed (another user's activity, or none at all)`,
      })
      return step
    }
    const between =
      named.start === undefined ? [] : earlier.filter((item) => item.start! > named.start! && item.id !== named.id)
    const ok = named.start !== undefined && named.start <= own.start && between.length === 0
    const message = ok
      ? 'previous names the nearest earlier activity'
      : named.start !== undefined && named.start > own.start
        ? `previous names ${named.uri}, which starts later (${String(named.item.start_time ?? named.item.startTime)})`
        : `previous names ${named.uri} (${String(named.item.start_time ?? named.item.startTime)}), but ${between.length} activit${between.length === 1 ? 'y starts' : 'ies start'} between it and this one, the nearest being ${latestOf(between)?.uri} (${String(latestOf(between)?.item.start_time ?? '')})`
    step.check({
      ok,
      rule: RULE,
      target: 'previous',
      matcher: 'nearest earlier',
      expected: nearest?.uri,
      actual: previous,
      message,
    })
    return step
  })
  return surveyScenario(identity, steps, started, nothingSampled(facts))
}

function latestOf(items: readonly SurveyItem[]): SurveyItem | undefined {
  let best: SurveyItem | undefined
  for (const item of items) if (!best || item.start! > best.start!) best = item
  return best
}
