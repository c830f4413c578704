// §2.3 userID "Owner" against §2.1 userID: every sampled activity of the main token's feed belongs
// to the user /user names. Judged on existing activities, not only on those the run creates.
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import { describeSampled, nothingSampled, type SurveyCheck } from '../survey-facts.js'

const RULE = 'ACTIVITY-OWNER'

export const checkOwner: SurveyCheck = async (facts) => {
  const started = performance.now()
  // A userID that is not an integer is judged by the field rules (§2.1, §2.3), not compared here.
  if (!Number.isInteger(facts.userId))
    return surveyScenario(
      identity,
      [],
      started,
      `GET /user answered ${facts.userId === undefined ? 'no userID' : `userID ${JSON.stringify(facts.userId)}, not an integer (§2.1)`}, so there is no owner to compare with`,
    )
  const steps = facts.sample.map((sampled) => {
    const step = new SurveyStep(
      `${describeSampled(sampled)} belongs to userID ${String(facts.userId)}`,
      surveySource('owner'),
      [RULE],
    )
    const shown = sampled.activity.userID
    if (!Number.isInteger(shown)) {
      step.skip(`the activity's userID ${JSON.stringify(shown)} is not an integer (§2.3); the field rules judge that`)
      return step
    }
    const ok = shown === facts.userId
    step.check({
      ok,
      rule: RULE,
      target: 'userID',
      matcher: 'equals',
      expected: facts.userId,
      actual: shown,
      message: ok
        ? "the activity names the token's user as owner"
        : `the activity says userID ${JSON.stringify(shown)}, but /user says this token's user is ${JSON.stringify(facts.userId)}, and the activity is in that user's feed (§2.1, §2.3 userID: Owner)`,
    })
    return step
  })
  return surveyScenario(identity, steps, started, nothingSampled(facts))
}

const identity = {
  id: 'survey-owner',
  title: 'Each sampled existing activity names the user of /user as its owner',
  rules: [RULE],
}
