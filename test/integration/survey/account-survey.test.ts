// The account survey against real servers on 127.0.0.1: the realistic history (small, for speed),
// an empty account, a capped walk, and every survey mutant killed by a read-only run.
import { afterEach, describe, expect, it } from 'vitest'
import { mutants, startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import type { ConformanceSettings } from '../../../src/execute/run-conformance.js'
import type { RunResult, ScenarioResult } from '../../../src/model/result.js'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'
import { demoTokensFor, ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'

let closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.map((close) => close()))
  closers = []
})

async function realistic(options: { historySize?: number; mutant?: string } = {}): Promise<RunningReferenceServer> {
  const server = await startReferenceServer({ mode: 'realistic', onInternalError: () => undefined, ...options })
  closers.push(() => server.close())
  return server
}

/** A read-only run of the user suite (a few reads) plus the survey. */
async function surveyRun(
  url: string,
  tokens: ConformanceSettings['target']['tokens'],
  maxActivities = 2500,
): Promise<RunResult> {
  const outcome = await runFixture('suites/user/user.yaml', targetOf(url, tokens, 'survey test'), {
    filter: { readOnly: true },
    concurrency: 2,
    survey: { maxActivities },
  })
  return ranResult(outcome)
}

const demoTokens = (server: RunningReferenceServer) =>
  demoTokensFor(server.tokens, ['token', 'other-token', 'limited-token'])
const survey = (result: RunResult) => result.scenarios.filter((scenario) => scenario.tags.includes('survey'))
const byId = (result: RunResult, id: string): ScenarioResult => result.scenarios.find((scenario) => scenario.id === id)!

describe('the account survey over a realistic history', () => {
  it('lists the sample with why each was picked, and passes the conforming server', async () => {
    const server = await realistic({ historySize: 60 })
    const result = await surveyRun(server.url, demoTokens(server))
    const picked = byId(result, 'survey-account')
      .steps.map((step) => step.name)
      .join('\n')
    expect(picked).toMatch(/walked the feed: \d+ activities on \d+ pages, size \d+; reached the last page/)
    for (const reason of [
      'newest start time',
      'oldest start time',
      'starts shortly after midnight',
      'activities on ',
      'largest body read',
      'most path points read',
      'notes with non-ASCII text',
      'days after its start',
    ])
      expect(picked).toContain(reason)
    expect(survey(result).map((scenario) => [scenario.id, scenario.status])).toEqual([
      ['survey-account', 'passed'],
      ['survey-item-matches-activity', 'passed'],
      ['survey-owner', 'passed'],
      ['survey-head-matches-get', 'passed'],
      ['survey-conditional-reads', 'passed'],
      ['survey-previous-neighbour', 'passed'],
      ['survey-date-scopes', 'passed'],
      ['survey-paging-walks', 'passed'],
      ['survey-identity', 'passed'],
    ])
  })

  it('sends nothing but GET and HEAD, and leaves the feed as it found it', async () => {
    const server = await realistic({ historySize: 30 })
    const before = await (
      await fetch(`${server.url}/fitnessActivities?pageSize=1000`, {
        headers: { authorization: `Bearer ${server.tokens.token}` },
      })
    ).text()
    const result = await surveyRun(server.url, demoTokens(server))
    const methods = new Set(
      survey(result).flatMap((scenario) => scenario.steps.map((step) => step.request?.method).filter(Boolean)),
    )
    expect([...methods].sort()).toEqual(['GET', 'HEAD'])
    const after = await (
      await fetch(`${server.url}/fitnessActivities?pageSize=1000`, {
        headers: { authorization: `Bearer ${server.tokens.token}` },
      })
    ).text()
    expect(after).toBe(before)
  })

  it('stops the walk at the cap, says so, and skips what needs the whole feed with that reason', async () => {
    const server = await realistic({ historySize: 60 })
    const result = await surveyRun(server.url, demoTokens(server), 10)
    expect(byId(result, 'survey-account').steps[0]!.name).toContain(
      'stopped: it stopped after 25 activities, the cap (--survey-max-activities 10)',
    )
    for (const id of ['survey-previous-neighbour', 'survey-paging-walks']) {
      expect(byId(result, id).status).toBe('skipped')
      expect(byId(result, id).skipReason).toContain('--survey-max-activities 10')
    }
    expect(byId(result, 'survey-item-matches-activity').status).toBe('passed')
  })
})

describe('a Last-Modified that GET and HEAD disagree on', () => {
  it('fails HEAD-MATCHES-GET only, and the dated checks skip the activity with the reason', async () => {
    const server = await realistic({ historySize: 30, mutant: 'get-last-modified-now' })
    const result = await surveyRun(server.url, demoTokens(server))
    const failedRules = new Set(
      survey(result).flatMap((scenario) =>
        scenario.steps.flatMap((step) =>
          step.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules),
        ),
      ),
    )
    expect([...failedRules]).toEqual(['HEAD-MATCHES-GET'])
    const skipped = byId(result, 'survey-conditional-reads').steps.filter((step) => step.status === 'skipped')
    expect(skipped.length).toBeGreaterThan(0)
    expect(skipped[0]!.skipReason).toMatch(
      /^GET gives Last-Modified .* and HEAD .*, so there is no one date to send or bracket$/,
    )
  })
})

describe('the account survey over an empty account', () => {
  let server: LoopbackServer
  it('skips every check with the reason the feed gave, and fails nothing', async () => {
    server = await startLoopbackServer((request, response) => {
      request.resume()
      if (answerUserEntryPoint(request, response)) return
      response
        .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
        .end('{"size":0,"items":[]}')
    })
    closers.push(() => server.close())
    const result = await surveyRun(server.url, { token: 'empty-account-test-token' })
    for (const scenario of survey(result).filter((s) => s.id !== 'survey-identity')) {
      expect(scenario.status, scenario.id).toBe('skipped')
      expect(scenario.skipReason, scenario.id).toContain(
        'the account holds no activities (the feed lists none, size 0)',
      )
    }
    expect(server.requests.every((line) => line.startsWith('GET ') || line.startsWith('HEAD '))).toBe(true)
  })
})

describe('the limited token refused outside the fitness activities', () => {
  it('passes, with a warning on each route that names both explanations and how to tell them apart', async () => {
    const server = await startLoopbackServer((request, response) => {
      request.resume()
      const limited = request.headers.authorization === 'Bearer limited-token-of-the-test'
      if (limited && (request.url === '/user' || request.url === '/profile')) {
        return void response
          .writeHead(403, { 'content-type': 'application/vnd.com.service.ErrorMessage+json' })
          .end('{"reason":"Insufficient permission"}')
      }
      if (answerUserEntryPoint(request, response)) return
      response
        .writeHead(200, { 'content-type': 'application/vnd.com.service.FitnessActivityFeed+json' })
        .end('{"size":0,"items":[]}')
    })
    closers.push(() => server.close())
    const result = await surveyRun(server.url, {
      token: 'main-token-of-the-test',
      'limited-token': 'limited-token-of-the-test',
    })
    const identity = byId(result, 'survey-identity')
    expect(identity.status).toBe('passed')
    expect(identity.warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(
        /^\/user is not the fitness-activities data set, yet the limited token was refused with 403 .*Either the server refuses more than §5 rule 3 allows .*, or this token lacks more than the fitness-activities permission\. To tell them apart, grant a token every permission but fitness activities/,
      ),
      expect.stringMatching(/^\/profile is not the fitness-activities data set/),
    ])
  })
})

describe('each survey mutant fails a read-only run, under its own rule and in the survey only', () => {
  const surveyMutants = mutants.filter((mutant) => mutant.mode === 'realistic')
  it.each(surveyMutants.map((mutant) => ({ name: mutant.name, rule: mutant.rule })))(
    '$name → $rule',
    async ({ name, rule }) => {
      const server = await realistic({ mutant: name })
      const result = await surveyRun(server.url, demoTokens(server))
      const failed = result.scenarios.filter((scenario) => scenario.status === 'failed')
      expect(failed.map((scenario) => scenario.id).every((id) => id.startsWith('survey-'))).toBe(true)
      const rules = new Set(
        failed.flatMap((scenario) =>
          scenario.steps.flatMap((step) =>
            step.assertions.filter((a) => !a.ok && a.severity === 'failure').flatMap((a) => a.rules),
          ),
        ),
      )
      expect([...rules]).toEqual([rule])
    },
  )
})
