// §2.2 feed item fields against §2.3 activity fields: "start_time ... same format as in 2.2", and
// every other field both carry names the same value. Judged on activities the run did not create,
// so a server that converts or rounds values only for stored data is seen too. Values, not only types.
import { parseSpecTime } from '../../../validation/time-formats.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import { describeSampled, nothingSampled, type SurveyCheck } from '../survey-facts.js'

const RULE = 'FEED-ITEM-MATCHES-ACTIVITY'
const SHARED_FIELDS = ['type', 'total_distance', 'duration', 'source', 'entry_mode', 'has_map'] as const

export const checkItemMatchesActivity: SurveyCheck = async (facts) => {
  const started = performance.now()
  const steps = facts.sample.map((sampled) => {
    const step = new SurveyStep(
      `the feed item of ${describeSampled(sampled)} shows its activity's values`,
      surveySource('item-matches-activity'),
      [RULE],
    )
    const { item } = sampled.item
    const itemStart = item.start_time ?? item.startTime
    const activityStart = sampled.activity.start_time
    // Compared as displayed wall times (with or without a leading zero); a start time not in the §2.2
    // format is judged by the format rules, not here.
    const itemInstant = typeof itemStart === 'string' ? parseSpecTime(itemStart) : undefined
    const activityInstant = typeof activityStart === 'string' ? parseSpecTime(activityStart) : undefined
    if (itemInstant !== undefined && activityInstant !== undefined) {
      const same = itemInstant === activityInstant
      step.check({
        ok: same,
        rule: RULE,
        target: 'start_time',
        matcher: 'sameInstant',
        expected: activityStart,
        actual: itemStart,
        message: same
          ? "the item shows the activity's start time"
          : `the feed item shows start time "${itemStart}" but the activity shows "${activityStart}" (§2.3 start_time: "same format as in 2.2"); a server must show one start time, not convert it for the feed`,
      })
    }
    for (const field of SHARED_FIELDS) {
      if (item[field] === undefined || sampled.activity[field] === undefined) continue
      // has_map's type (text) is judged by its own rules; here only the value.
      const same = String(item[field]) === String(sampled.activity[field])
      step.check({
        ok: same,
        rule: RULE,
        target: field,
        matcher: 'equals',
        expected: sampled.activity[field],
        actual: item[field],
        message: same
          ? `the item shows the activity's ${field}`
          : `the feed item shows ${field} ${JSON.stringify(item[field])} but the activity shows ${JSON.stringify(sampled.activity[field])}: both name the same activity (§2.2, §2.3), so they must show one value`,
      })
    }
    return step
  })
  return surveyScenario(
    {
      id: 'survey-item-matches-activity',
      title: 'Each sampled existing activity shows the same values as its feed item',
      rules: [RULE],
    },
    steps,
    started,
    nothingSampled(facts),
  )
}
