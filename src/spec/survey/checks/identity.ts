// §2.1 userID and §2.3 userID across tokens, and the limited token outside its missing data set.
// - Two tokens whose /user names one userID belong to one user: the activities each one's feed lists
//   must then carry that userID too. When they name one userID, the run also says that the
//   isolation scenarios cannot tell two users apart with them.
// - §5 rule 3 refuses "a data set the application has no permission for". A token lacking the
//   fitness-activities permission that is refused on /user or /profile is either a server refusing
//   more than the rule allows, or a token lacking more than that one permission; the spec cannot
//   tell them apart, so the run says so plainly (a warning, not a failure).
import type { TokenRole } from '../../../model/scenario.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import type { SurveyCheck, SurveyFacts } from '../survey-facts.js'
import { ENTRY_POINT_PATH, FEED_PATH, PROFILE_PATH } from '../../paths.js'

export const checkIdentity: SurveyCheck = async (facts) => {
  const started = performance.now()
  const steps: SurveyStep[] = []
  if (facts.reader.hasToken('other-token')) steps.push(await sameUserSameOwner(facts))
  if (facts.reader.hasToken('limited-token')) steps.push(...(await limitedTokenOutsideItsDataSet(facts)))
  return surveyScenario(
    {
      id: 'survey-identity',
      title:
        'Tokens that /user names as one user list activities of that one owner; the limited token is refused only the fitness activities',
      rules: ['ACTIVITY-OWNER', 'ERROR-403-INSUFFICIENT'],
    },
    steps,
    started,
    steps.length === 0 ? 'neither --other-token nor --limited-token was given' : undefined,
  )
}

async function sameUserSameOwner(facts: SurveyFacts): Promise<SurveyStep> {
  const step = new SurveyStep(
    'when the main and the other token name one userID, their activities name it too',
    surveySource('identity'),
    ['ACTIVITY-OWNER'],
  )
  const other = step.show(
    await facts.reader.send({ method: 'GET', target: ENTRY_POINT_PATH, accept: 'User', auth: 'other-token' }),
  )
  const otherId = (other.body as { userID?: unknown } | undefined)?.userID
  if (other.status !== 200 || !Number.isInteger(otherId) || !Number.isInteger(facts.userId)) {
    step.skip(
      `/user answered ${other.status} for the other token${Number.isInteger(otherId) ? '' : ' without an integer userID'}${Number.isInteger(facts.userId) ? '' : ' and no integer userID for the main token'}, so the two users cannot be compared`,
    )
    return step
  }
  if (otherId !== facts.userId) {
    step.check({
      ok: true,
      rule: 'ACTIVITY-OWNER',
      target: 'userID',
      matcher: 'notEquals',
      expected: facts.userId,
      actual: otherId,
      message: 'the two tokens are two users',
    })
    return step
  }
  step.check({
    ok: false,
    warning: true,
    rule: 'ACTIVITY-OWNER',
    target: 'userID',
    matcher: 'notEquals',
    expected: `not ${String(facts.userId)}`,
    actual: otherId,
    message: `/user names userID ${String(otherId)} for both the main and the other token: the user-isolation scenarios cannot tell two users apart with them; give --other-token a token of another user`,
  })
  const owners = new Map<TokenRole, unknown>()
  for (const role of ['token', 'other-token'] as const) {
    const feed = await facts.reader.send({
      method: 'GET',
      target: FEED_PATH,
      query: { pageSize: '1' },
      accept: 'FitnessActivityFeed',
      auth: role,
    })
    const uri = (feed.body as { items?: { uri?: unknown }[] } | undefined)?.items?.[0]?.uri
    if (typeof uri !== 'string') continue
    const activity = step.show(
      await facts.reader.send({ method: 'GET', target: uri, accept: 'FitnessActivity', auth: role }),
    )
    owners.set(role, (activity.body as { userID?: unknown } | undefined)?.userID)
  }
  for (const [role, owner] of owners) {
    const ok = owner === otherId
    step.check({
      ok,
      rule: 'ACTIVITY-OWNER',
      target: 'userID',
      matcher: 'equals',
      expected: otherId,
      actual: owner,
      message: ok
        ? `the ${role}'s activity names the shared userID`
        : `/user names userID ${String(otherId)} for both tokens, but an activity of the ${role}'s feed names ${JSON.stringify(owner)} as its owner (§2.1, §2.3 userID): either the tokens are two users and /user misnames one, or the activities carry the wrong owner`,
    })
  }
  return step
}

async function limitedTokenOutsideItsDataSet(facts: SurveyFacts): Promise<SurveyStep[]> {
  const steps: SurveyStep[] = []
  for (const [target, accept] of [
    [ENTRY_POINT_PATH, 'User'],
    [PROFILE_PATH, 'Profile'],
  ] as const) {
    const step = new SurveyStep(
      `GET ${target} with the token lacking the fitness-activities permission`,
      surveySource('identity'),
      ['ERROR-403-INSUFFICIENT'],
    )
    const exchange = step.show(await facts.reader.send({ method: 'GET', target, accept, auth: 'limited-token' }))
    const refused = exchange.status === 403
    step.check({
      ok: !refused,
      warning: true,
      rule: 'ERROR-403-INSUFFICIENT',
      target: 'status',
      matcher: 'notEquals',
      expected: 'not 403',
      actual: exchange.status,
      message: refused
        ? `${target} is not the fitness-activities data set, yet the limited token was refused with 403 (reason ${JSON.stringify((exchange.body as { reason?: unknown } | undefined)?.reason)}). Either the server refuses more than §5 rule 3 allows (only "a data set the application has no permission for"), or this token lacks more than the fitness-activities permission. To tell them apart, grant a token every permission but fitness activities and run again: if ${target} is still refused, the server is at fault`
        : `${target} answered ${exchange.status}: the token is refused only what it lacks`,
    })
    steps.push(step)
  }
  return steps
}
