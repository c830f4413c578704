// The survey's reads and check classes at work side by side (issue 30: on a distant server the survey
// was a chain of hundreds of round trips ahead of every scenario), with the same results, in the same order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import type { ScenarioResult } from '../../../src/model/result.js'
import { mediaTypeOf } from '../../../src/spec/representations.js'
import { surveyAccount } from '../../../src/spec/survey/survey-account.js'
import type { SurveyReader } from '../../../src/spec/survey/survey-facts.js'

let server: RunningReferenceServer
beforeAll(async () => {
  server = await startReferenceServer({ mode: 'realistic', historySize: 30, onInternalError: () => undefined })
})
afterAll(() => server.close())

/** A reader over fetch that counts how many of its reads were in flight at once. */
function countingReader(): { reader: SurveyReader; mostInFlight: () => number } {
  let inFlight = 0
  let most = 0
  const tokens: Record<string, string> = {
    token: server.tokens.token,
    'other-token': server.tokens.otherToken,
    'limited-token': server.tokens.limitedToken,
  }
  const reader: SurveyReader = {
    hasToken: (role) => role in tokens,
    interrupted: new AbortController().signal,
    send: async (request) => {
      const url = new URL(request.target, server.url)
      for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value)
      const headers: Record<string, string> = {
        authorization: `Bearer ${tokens[request.auth ?? 'token']}`,
        ...(request.accept ? { accept: mediaTypeOf(request.accept) } : {}),
        ...request.headers,
      }
      inFlight += 1
      most = Math.max(most, inFlight)
      try {
        const response = await fetch(url, { method: request.method, headers })
        const text = await response.text()
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = undefined
        }
        return {
          request: { method: request.method, url: url.href, headers },
          curl: '',
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body,
          wireBytes: text.length,
          bodyBytes: text.length,
        }
      } finally {
        inFlight -= 1
      }
    },
  }
  return { reader, mostInFlight: () => most }
}

async function survey(concurrency: number): Promise<{ results: ScenarioResult[]; mostInFlight: number }> {
  const { reader, mostInFlight } = countingReader()
  const results: ScenarioResult[] = []
  await surveyAccount(reader, { maxActivities: 2500, concurrency }, async (result) => {
    results.push(result)
  })
  return { results, mostInFlight: mostInFlight() }
}

describe('the survey with --concurrency', () => {
  it('sends one read at a time at 1, several at once above, with the same results in the same order', async () => {
    const one = await survey(1)
    const four = await survey(4)
    expect(one.mostInFlight).toBe(1)
    expect(four.mostInFlight).toBeGreaterThan(1)
    expect(four.mostInFlight).toBeLessThanOrEqual(4)
    const outline = (results: readonly ScenarioResult[]) =>
      results.map((result) => [result.id, result.status, result.steps.map((step) => step.name)])
    expect(outline(four.results)).toEqual(outline(one.results))
    expect(four.results.map((result) => result.id)).toEqual([
      'survey-account',
      'survey-item-matches-activity',
      'survey-owner',
      'survey-head-matches-get',
      'survey-conditional-reads',
      'survey-previous-neighbour',
      'survey-date-scopes',
      'survey-paging-walks',
      'survey-identity',
    ])
  })
})
