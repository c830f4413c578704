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
  /**
   * How many reads and check classes may be at work at once (the run's --concurrency; absent: 1). Every
   * request is a read and nothing writes before the survey ends, so their order cannot change an answer;
   * results are still handed on in the order of CHECKS. On a distant server the survey is otherwise a
   * long chain of round trips ahead of every scenario (docs/benchmarks.md, the suite behind 50 ms each way).
   */
  readonly concurrency?: number
}

const CHECKS: readonly SurveyCheck[] = [
  checkItemMatchesActivity,
  checkOwner,
  checkHeadMatchesGet,
  checkConditionalReads,
  checkPreviousNeighbour,
  checkDateScopes,
  checkPagingWalks,
  checkIdentity,
]

/**
 * Surveys the account and runs every check over the sample, handing each result on as it ends; the first lists the
 * sample and why each was picked.
 */
export async function surveyAccount(
  reader: SurveyReader,
  settings: SurveySettings,
  onResult: (result: ScenarioResult) => Promise<void>,
): Promise<void> {
  const started = performance.now()
  const user = await reader.send({ method: 'GET', target: ENTRY_POINT_PATH, accept: 'User' })
  const userId = (user.body as { userID?: unknown } | undefined)?.userID
  const walk = await walkFeed(reader, { maxActivities: settings.maxActivities })
  const limit = limiter(settings.concurrency ?? 1)
  const candidates = await readCandidates(reader, pickCandidates(walk.items, CANDIDATE_READS), limit)
  const sample = await confirmLastModified(reader, pickSample(candidates), limit)
  const facts: SurveyFacts = { reader, userId, walk, sample }
  await onResult(surveyOverview(walk, sample, candidates.length, started))
  // An account with nothing in it is nothing to judge, not a failure: each check skips with the reason.
  const judged = CHECKS.map((check) => limit(async () => (reader.interrupted.aborted ? undefined : await check(facts))))
  judged.forEach((each) => each.catch(() => undefined))
  for (const result of judged) {
    const ended = await result
    if (ended === undefined) break
    await onResult(ended)
  }
}

/** Runs each task given to it with at most `size` at work at once, in the order given. */
function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0
  const queue: (() => void)[] = []
  return async (task) => {
    if (active >= Math.max(1, size)) await new Promise<void>((resolve) => queue.push(resolve))
    else active++
    try {
      return await task()
    } finally {
      const next = queue.shift()
      if (next) next()
      else active--
    }
  }
}

async function readCandidates(
  reader: SurveyReader,
  candidates: ReturnType<typeof pickCandidates>,
  limit: ReturnType<typeof limiter>,
): Promise<ReadCandidate[]> {
  return Promise.all(
    candidates.map((candidate) =>
      limit(async (): Promise<ReadCandidate> => {
        const exchange = await reader.send({ method: 'GET', target: candidate.item.uri, accept: 'FitnessActivity' })
        const activity =
          exchange.status === 200 &&
          typeof exchange.body === 'object' &&
          exchange.body !== null &&
          !Array.isArray(exchange.body)
            ? (exchange.body as Record<string, unknown>)
            : undefined
        const lastModified = parseHttpDate(exchange.headers['last-modified'] ?? '')
        return {
          ...candidate,
          read: exchange,
          bodyBytes: exchange.bodyBytes,
          activity,
          lastModified,
        }
      }),
    ),
  )
}

/**
 * The conditional and modification-scope checks date their requests from Last-Modified: only from one
 * that GET and HEAD agree on. When they disagree, HEAD-MATCHES-GET says so, and those checks skip the
 * activity rather than judge a date the server itself does not stand by.
 */
async function confirmLastModified(
  reader: SurveyReader,
  sample: readonly SampledActivity[],
  limit: ReturnType<typeof limiter>,
): Promise<SampledActivity[]> {
  return Promise.all(
    sample.map((sampled) =>
      limit(async (): Promise<SampledActivity> => {
        const head = await reader.send({ method: 'HEAD', target: sampled.item.uri, accept: 'FitnessActivity' })
        const headDate = parseHttpDate(head.headers['last-modified'] ?? '')
        if (sampled.lastModified === undefined || headDate === undefined || headDate === sampled.lastModified)
          return sampled
        const { lastModified: _doubted, ...rest } = sampled
        return {
          ...rest,
          lastModifiedDoubt: `GET gives Last-Modified ${sampled.read.headers['last-modified']} and HEAD ${head.headers['last-modified']}, so there is no one date to send or bracket`,
        }
      }),
    ),
  )
}

/** The survey's own scenario: how far the walk went, and each sampled activity with why it was picked. */
function surveyOverview(
  walk: FeedWalk,
  sample: readonly SampledActivity[],
  read: number,
  started: number,
): ScenarioResult {
  const at = { file: 'src/spec/survey/survey-account.ts', line: 1, column: 1 }
  const walked = new SurveyStep(
    `walked the feed: ${walk.items.length} activities on ${walk.pages} page${walk.pages === 1 ? '' : 's'}${walk.size !== undefined ? `, size ${walk.size}` : ''}; ${walk.complete ? 'reached the last page' : `stopped: ${walk.stoppedBecause}`}; read ${read} to choose the sample`,
    at,
    [],
  )
  if (walk.first) walked.show(walk.first)
  if (walk.items.length === 0) walked.skip(emptyReason(walk))
  const picked = sample.map(
    (sampled) => new SurveyStep(`sampled ${sampled.item.uri}: ${sampled.reasons.join('; ')}`, at, []),
  )
  return surveyScenario(
    {
      id: 'survey-account',
      title: 'The account survey: existing activities sampled for the read-only checks, and why each was picked',
      rules: [],
    },
    [walked, ...picked],
    started,
    walk.items.length === 0 ? emptyReason(walk) : undefined,
    at,
  )
}

function emptyReason(walk: FeedWalk): string {
  if (walk.stoppedBecause && walk.items.length === 0) return `the feed could not be read: ${walk.stoppedBecause}`
  return `the account holds no activities (the feed lists none${walk.size !== undefined ? `, size ${walk.size}` : ''}), so there is nothing existing to judge`
}
