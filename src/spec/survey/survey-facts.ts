import type { TokenRole } from '../../model/scenario.js'
import type { SendRead } from './survey-exchange.js'
import type { FeedWalk } from './walk-feed.js'
import type { SampledActivity } from './pick-sample.js'

/** What the survey learnt before judging anything; every check reads it, none changes it. */
/** What the engine lends the survey: a way to read, which tokens were given, and the run's interrupt. */
export interface SurveyReader {
  readonly send: SendRead
  hasToken(role: TokenRole): boolean
  readonly interrupted: AbortSignal
}

export interface SurveyFacts {
  readonly reader: SurveyReader
  /** userID of `/user` for the main token, when it answered one. */
  readonly userId?: unknown
  readonly walk: FeedWalk
  readonly sample: readonly SampledActivity[]
}

/** One check class: reads what it needs and returns its scenario's result. */
export type SurveyCheck = (facts: SurveyFacts) => Promise<import('../../model/result.js').ScenarioResult>

/** How a sampled activity is named in step names: its uri and why it was picked. */
export function describeSampled(sampled: SampledActivity): string {
  return `${sampled.item.uri} (${sampled.reasons.join('; ')})`
}

/** Why a check over the sample has nothing to judge, derived from what the server answered; undefined when there is a sample. */
export function nothingSampled(facts: SurveyFacts): string | undefined {
  if (facts.sample.length > 0) return undefined
  const { walk } = facts
  if (walk.items.length === 0 && walk.stoppedBecause) return `the feed could not be read (${walk.stoppedBecause})`
  if (walk.items.length === 0)
    return `the account holds no activities (the feed lists none${walk.size !== undefined ? `, size ${walk.size}` : ''}), so there is nothing existing to judge`
  return `none of the ${walk.items.length} activities the feed lists could be read as an activity (GET of each sampled uri answered no FitnessActivity body)`
}
