// §2.2 size and previous, §4 rule 2 and §8 over the whole existing feed: walks with pageSize 1, a
// divisor of size, size itself, size + 1 and a large value each meet every activity exactly once, as
// many as size says, in pages of exactly pageSize but the last. A scoped read with more matches than
// pageSize holds pageSize items. The spec shows no maximum page size (§8): a 4xx to a pageSize above
// the default is not judged; a 5xx never passes (§7 rule 5). Whether the last page may be empty is
// not said either (§2.2 previous links "to another page"), so an empty last page passes.
import { addDays, itemsNotAList, lastSegment } from '../feed-items.js'
import type { SurveyExchange } from '../survey-exchange.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import { nothingSampled, type SurveyCheck, type SurveyFacts } from '../survey-facts.js'
import { DEFAULT_PAGE_SIZE } from '../../endpoints.js'
import { FEED_PATH } from '../../paths.js'

const LARGE_PAGE_SIZE = 1000
/** Above this many activities a walk one at a time costs more requests than it teaches. */
const MAX_ONE_BY_ONE = 300

export const checkPagingWalks: SurveyCheck = async (facts) => {
  const started = performance.now()
  const identity = {
    id: 'survey-paging-walks',
    title:
      'Walks of the existing feed with pageSize 1, a divisor of size, size, size + 1 and a large value meet every activity once, in full pages; a scoped read holds no more than pageSize',
    rules: ['FEED-PAGE-SIZE', 'FEED-WALK-COMPLETE', 'FEED-PREVIOUS-KEEPS-PAGE-SIZE', 'ERROR-CLIENT-NOT-5XX'],
  }
  if (!facts.walk.complete)
    return surveyScenario(
      identity,
      [],
      started,
      `the feed walk did not reach the end (${facts.walk.stoppedBecause ?? 'no reason given'}), so the feed's extent is not known`,
    )
  const size = facts.walk.items.length
  if (size === 0) return surveyScenario(identity, [], started, nothingSampled(facts))
  const steps: SurveyStep[] = []
  for (const pageSize of pageSizesFor(size)) steps.push(await walkWith(facts, pageSize, size))
  const scoped = await scopedOverPageSize(facts)
  if (scoped) steps.push(scoped)
  return surveyScenario(identity, steps, started)
}

/** 1 (small feeds), the largest divisor of size up to half of it and at most 100, size, size + 1 and a large value. */
export function pageSizesFor(size: number): number[] {
  const divisor = [...Array(Math.floor(size / 2)).keys()]
    .map((i) => Math.floor(size / 2) - i)
    .find((d) => d >= 2 && size % d === 0 && d <= 100)
  const sizes = [
    ...(size <= MAX_ONE_BY_ONE ? [1] : []),
    ...(divisor ? [divisor] : []),
    size,
    size + 1,
    Math.max(LARGE_PAGE_SIZE, size + 2),
  ]
  return [...new Set(sizes)]
}

async function walkWith(facts: SurveyFacts, pageSize: number, size: number): Promise<SurveyStep> {
  const step = new SurveyStep(`walk the feed with pageSize ${pageSize} (size ${size})`, surveySource('paging-walks'), [
    'FEED-PAGE-SIZE',
    'FEED-WALK-COMPLETE',
    'FEED-PREVIOUS-KEEPS-PAGE-SIZE',
  ])
  const ids: string[] = []
  const maxPages = Math.ceil(size / pageSize) + 2
  let target: string | undefined = FEED_PATH
  let query: Record<string, string> = { pageSize: String(pageSize) }
  for (let page = 1; target !== undefined; page++) {
    if (page > maxPages) {
      step.check({
        ok: false,
        rule: 'FEED-WALK-COMPLETE',
        target: 'previous',
        matcher: 'ends',
        actual: target,
        message: `after ${maxPages} pages of ${pageSize} the feed of size ${size} still links to another page`,
      })
      return step
    }
    const exchange: SurveyExchange = step.show(
      await facts.reader.send({ method: 'GET', target, query, accept: 'FitnessActivityFeed' }),
    )
    if (exchange.error) return step
    if (!judgeStatus(step, exchange, pageSize)) return step
    const body = exchange.body as { items?: unknown[]; previous?: unknown }
    const items = body.items ?? []
    const next = typeof body.previous === 'string' ? body.previous : undefined
    if (next !== undefined && items.length !== pageSize) {
      step.check({
        ok: false,
        rule: 'FEED-PAGE-SIZE',
        target: 'items',
        matcher: 'length',
        expected: pageSize,
        actual: items.length,
        message: `page ${page} holds ${items.length} items and links to another page, but pageSize ${pageSize} was asked (§4 rule 2: "the page holds that many entries")${pageSize > DEFAULT_PAGE_SIZE ? '; a server with a maximum page size should refuse the value, not cut pages short silently' : ''}`,
      })
      return step
    }
    if (items.length > pageSize) {
      step.check({
        ok: false,
        rule: 'FEED-PAGE-SIZE',
        target: 'items',
        matcher: 'maxLength',
        expected: pageSize,
        actual: items.length,
        message: `page ${page} holds ${items.length} items for pageSize ${pageSize} (§4 rule 2)`,
      })
      return step
    }
    if (next !== undefined && !keepsPageSize(next, pageSize)) {
      // The next page would be served at another size: that is the link's fault, not the page's.
      step.check({
        ok: false,
        rule: 'FEED-PREVIOUS-KEEPS-PAGE-SIZE',
        target: 'previous',
        matcher: 'query(pageSize)',
        expected: String(pageSize),
        actual: next,
        message: `page ${page}'s previous link does not keep pageSize=${pageSize} (§4 rule 2: "the previous link keeps the parameter")`,
      })
      return step
    }
    for (const item of items)
      ids.push(
        typeof item === 'object' && item !== null && typeof (item as { uri?: unknown }).uri === 'string'
          ? lastSegment((item as { uri: string }).uri)
          : '',
      )
    target = next
    query = {}
  }
  const unique = new Set(ids).size === ids.length
  step.check({
    ok: unique,
    rule: 'FEED-WALK-COMPLETE',
    target: 'items[*].uri',
    matcher: 'unique',
    actual: ids.length - new Set(ids).size,
    message: unique
      ? 'every activity met once'
      : `${ids.length - new Set(ids).size} activities were met twice walking with pageSize ${pageSize}`,
  })
  const counted = ids.length === size
  step.check({
    ok: counted,
    rule: 'FEED-WALK-COMPLETE',
    target: 'items',
    matcher: 'length',
    expected: size,
    actual: ids.length,
    message: counted
      ? `met ${size} activities, as many as the feed holds`
      : `walking with pageSize ${pageSize} met ${ids.length} activities, but the feed holds ${size} (the survey's walk with the default page size, §2.2 size)`,
  })
  return step
}

/** False when the answer ends the walk: a 5xx fails, a 4xx to a page size the spec may cap is not judged. */
function judgeStatus(step: SurveyStep, exchange: SurveyExchange, pageSize: number): boolean {
  if (exchange.status >= 500) {
    step.check({
      ok: false,
      rule: 'ERROR-CLIENT-NOT-5XX',
      target: 'status',
      matcher: 'lt',
      expected: 500,
      actual: exchange.status,
      message: `pageSize ${pageSize} was answered ${exchange.status}: a value the server cannot serve is the client's error, never a 5xx (§7 rule 5)`,
    })
    return false
  }
  if (exchange.status >= 400 && pageSize > DEFAULT_PAGE_SIZE) {
    step.skip(
      `pageSize ${pageSize} was refused with ${exchange.status}; the spec shows no maximum page size (§8), so a refusal is the server's choice`,
    )
    return false
  }
  const items = (exchange.body as { items?: unknown } | undefined)?.items
  const ok = exchange.status === 200 && Array.isArray(items)
  if (!ok)
    step.check({
      ok,
      rule: 'FEED-PAGE-SIZE',
      target: 'status',
      matcher: 'equals',
      expected: 200,
      actual: exchange.status,
      message: `pageSize ${pageSize} was answered ${exchange.status}${exchange.status === 200 ? ' without an items list' : ''} (§4 rule 1: pageSize is an integer parameter of feed reads)`,
    })
  return ok
}

/** A start scope around the newest three activities' days, read with pageSize 2. */
async function scopedOverPageSize(facts: SurveyFacts): Promise<SurveyStep | undefined> {
  const dated = facts.walk.items.filter((item) => item.day !== undefined).sort((a, b) => b.start! - a.start!)
  if (dated.length < 3) return undefined
  const from = dated[2]!.day!
  const to = dated[0]!.day!
  const matches = dated.filter((item) => item.day! >= from && item.day! <= to).length
  const step = new SurveyStep(
    `the feed scoped to ${from}–${to} (${matches} activities displayed on those days) with pageSize 2 holds 2 items`,
    surveySource('paging-walks'),
    ['FEED-PAGE-SIZE'],
  )
  const exchange = step.show(
    await facts.reader.send({
      method: 'GET',
      target: FEED_PATH,
      query: { noEarlierThan: from, noLaterThan: addDays(to, 0), pageSize: '2' },
      accept: 'FitnessActivityFeed',
    }),
  )
  if (exchange.error) return step
  const items = (exchange.body as { items?: unknown } | undefined)?.items
  if (exchange.status !== 200) {
    step.check({
      ok: false,
      rule: 'FEED-PAGE-SIZE',
      target: 'status',
      matcher: 'equals',
      expected: 200,
      actual: exchange.status,
      message: `a scoped read with pageSize 2 answered ${exchange.status} (§4 rules 1, 2 and 4)`,
    })
    return step
  }
  if (!Array.isArray(items)) {
    step.check(itemsNotAList(items))
    return step
  }
  const ok = items.length === 2
  step.check({
    ok,
    rule: 'FEED-PAGE-SIZE',
    target: 'items',
    matcher: 'length',
    expected: 2,
    actual: items.length,
    message: ok
      ? 'the scoped page holds pageSize items'
      : `the scope covers ${matches} activities, more than pageSize 2, and the page holds ${items.length} (§4 rule 2: "the page holds that many entries")`,
  })
  return step
}

function keepsPageSize(link: string, pageSize: number): boolean {
  try {
    return new URL(link, 'http://relative.invalid').searchParams.get('pageSize') === String(pageSize)
  } catch {
    return false
  }
}
