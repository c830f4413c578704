// The account survey: walk the user's existing feed (bounded by a cap), read a deterministic sample
// of existing activities, and judge them with read-only checks. Nothing here changes the account:
// every request is a GET or HEAD, sent through the reader the engine lends (src/survey/). Each check
// class reports as one scenario, so every reporter, the known-failures file and the self-test read
// the survey as they read the suites.
import type { ScenarioResult } from '../../model/result.js'
import { parseHttpDate } from '../../validation/time-formats.js'
import { ENTRY_POINT_PATH } from '../paths.js'
import { pickCandidates, pickSample, type ReadCandidate, type SampledActivity } from './pick-sample.js'
import { SurveyStep, surveyScenario } from './survey-result.js'
import { walkFeed, type FeedWalk } from './walk-feed.js'
import type { SurveyCheck, SurveyFacts, SurveyReader } from './survey-facts.js'
import { checkItemMatchesActivity } from './checks/item-matches-activity.js'
import { checkOwner } from './checks/owner.js'
import { checkHeadMatchesGet } from './checks/head-matches-get.js'
import { checkConditionalReads } from './checks/conditional-reads.js'
import { checkPreviousNeighbour } from './checks/previous-neighbour.js'
import { checkDateScopes } from './checks/date-scopes.js'
import { checkPagingWalks } from './checks/paging-walks.js'
import { checkIdentity } from './checks/identity.js'

/** --survey-max-activities default: a few thousand activities, about a hundred pages of 25. */
export const DEFAULT_SURVEY_MAX_ACTIVITIES = 2500

/** How many existing activities are read to choose the sample from. */
const CANDIDATE_READS = 40

export interface SurveySettings {
  /** The walk stops after this many activities, and says so. */
  readonly maxActivities: number
}


const CHECKS: readonly SurveyCheck[] = [checkItemMatchesActivity, checkOwner, checkHeadMatchesGet, checkConditionalReads, checkPreviousNeighbour, checkDateScopes, checkPagingWalks, checkIdentity]

/** Surveys the account and runs every check over the sample, handing each result on as it ends; the first lists the sample and why each was picked. */
export async function surveyAccount(reader: SurveyReader, settings: SurveySettings, onResult: (result: ScenarioResult) => Promise<void>): Promise<void> {
  const started = performance.now()
  const user = await reader.send({ method: 'GET', target: ENTRY_POINT_PATH, accept: 'User' })
  const userId = (user.body as { userID?: unknown } | undefined)?.userID
  const walk = await walkFeed(reader, { maxActivities: settings.maxActivities })
  const candidates = await readCandidates(reader, pickCandidates(walk.items, CANDIDATE_READS))
  const sample = await confirmLastModified(reader, pickSample(candidates))
  const facts: SurveyFacts = { reader, ...(userId !== undefined ? { userId } : {}), walk, sample }
  await onResult(surveyOverview(walk, sample, candidates.length, started))
  for (const check of CHECKS) {
    if (reader.interrupted.aborted) break
    // An account with nothing in it is nothing to judge, not a failure: each check skips with the reason.
    await onResult(await check(facts))
  }
}

async function readCandidates(reader: SurveyReader, candidates: ReturnType<typeof pickCandidates>): Promise<ReadCandidate[]> {
  const read: ReadCandidate[] = []
  for (const candidate of candidates) {
    const exchange = await reader.send({ method: 'GET', target: candidate.item.uri, accept: 'FitnessActivity' })
    const activity = exchange.status === 200 && typeof exchange.body === 'object' && exchange.body !== null && !Array.isArray(exchange.body) ? (exchange.body as Record<string, unknown>) : undefined
    const lastModified = parseHttpDate(exchange.headers['last-modified'] ?? '')
    read.push({ ...candidate, read: exchange, bodyBytes: exchange.bodyBytes, ...(activity ? { activity } : {}), ...(lastModified !== undefined ? { lastModified } : {}) })
  }
  return read
}

/**
 * The conditional and modification-scope checks date their requests from Last-Modified: only from one
 * that GET and HEAD agree on. When they disagree, HEAD-MATCHES-GET says so, and those checks skip the
 * activity rather than judge a date the server itself does not stand by.
 */
async function confirmLastModified(reader: SurveyReader, sample: readonly SampledActivity[]): Promise<SampledActivity[]> {
  const confirmed: SampledActivity[] = []
  for (const sampled of sample) {
    const head = await reader.send({ method: 'HEAD', target: sampled.item.uri, accept: 'FitnessActivity' })
    const headDate = parseHttpDate(head.headers['last-modified'] ?? '')
    if (sampled.lastModified === undefined || headDate === undefined || headDate === sampled.lastModified) {
      confirmed.push(sampled)
      continue
    }
    const { lastModified: _doubted, ...rest } = sampled
    confirmed.push({ ...rest, lastModifiedDoubt: `GET gives Last-Modified ${sampled.read.headers['last-modified']} and HEAD ${head.headers['last-modified']}, so there is no one date to send or bracket` })
  }
  return confirmed
}

/** The survey's own scenario: how far the walk went, and each sampled activity with why it was picked. */
function surveyOverview(walk: FeedWalk, sample: readonly SampledActivity[], read: number, started: number): ScenarioResult {
  const at = { file: 'src/spec/survey/survey-account.ts', line: 1, column: 1 }
  const walked = new SurveyStep(`walked the feed: ${walk.items.length} activities on ${walk.pages} page${walk.pages === 1 ? '' : 's'}${walk.size !== undefined ? `, size ${walk.size}` : ''}; ${walk.complete ? 'reached the last page' : `stopped: ${walk.stoppedBecause}`}; read ${read} to choose the sample`, at, [])
  if (walk.first) walked.show(walk.first)
  if (walk.items.length === 0) walked.skip(emptyReason(walk))
  const picked = sample.map((sampled) => new SurveyStep(`sampled ${sampled.item.uri}: ${sampled.reasons.join('; ')}`, at, []))
  return surveyScenario({ id: 'survey-account', title: 'The account survey: existing activities sampled for the read-only checks, and why each was picked', rules: [] }, [walked, ...picked], started, walk.items.length === 0 ? emptyReason(walk) : undefined, at)
}

function emptyReason(walk: FeedWalk): string {
  if (walk.stoppedBecause && walk.items.length === 0) return `the feed could not be read: ${walk.stoppedBecause}`
  return `the account holds no activities (the feed lists none${walk.size !== undefined ? `, size ${walk.size}` : ''}), so there is nothing existing to judge`
}
