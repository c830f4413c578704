// §4 endpoint 9 with RFC 9110 §9.3.2: HEAD answers with the headers GET would send. Judged on
// existing activities, whose bodies can be large (long GPS paths), where a Content-Length computed
// apart from the body goes wrong first; with and without Accept-Encoding, since a compressed body
// changes the length and a HEAD must count the body its own request would get.
import { parseHttpDate } from '../../../validation/time-formats.js'
import type { SurveyExchange } from '../survey-exchange.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import { describeSampled, nothingSampled, type SurveyCheck } from '../survey-facts.js'

const RULE = 'HEAD-MATCHES-GET'

export const checkHeadMatchesGet: SurveyCheck = async (facts) => {
  const started = performance.now()
  const steps: SurveyStep[] = []
  for (const sampled of facts.sample) {
    const plain = new SurveyStep(
      `HEAD of ${describeSampled(sampled)} announces what GET sends`,
      surveySource('head-matches-get'),
      [RULE],
    )
    const head = plain.show(
      await facts.reader.send({ method: 'HEAD', target: sampled.item.uri, accept: 'FitnessActivity' }),
    )
    compare(plain, sampled.read, head, 'no Accept-Encoding')
    steps.push(plain)
    const coded = new SurveyStep(
      `HEAD of ${sampled.item.uri} with Accept-Encoding: gzip announces what GET with the same header sends`,
      surveySource('head-matches-get'),
      [RULE],
    )
    const headers = { 'accept-encoding': 'gzip' }
    const get = await facts.reader.send({ method: 'GET', target: sampled.item.uri, accept: 'FitnessActivity', headers })
    const codedHead = coded.show(
      await facts.reader.send({ method: 'HEAD', target: sampled.item.uri, accept: 'FitnessActivity', headers }),
    )
    if ((get.headers['content-encoding'] ?? 'identity') !== (codedHead.headers['content-encoding'] ?? 'identity')) {
      coded.skip(
        `GET chose Content-Encoding ${get.headers['content-encoding'] ?? 'identity'} and HEAD ${codedHead.headers['content-encoding'] ?? 'identity'}: their lengths count different bodies`,
      )
    } else compare(coded, get, codedHead, 'Accept-Encoding: gzip')
    steps.push(coded)
  }
  return surveyScenario(
    {
      id: 'survey-head-matches-get',
      title: 'HEAD of each sampled existing activity announces the type, length and Last-Modified of its GET',
      rules: [RULE],
    },
    steps,
    started,
    nothingSampled(facts),
  )
}

function compare(step: SurveyStep, get: SurveyExchange, head: SurveyExchange, how: string): void {
  if (get.status !== 200) return step.skip(`GET answered ${get.status}, so there is no body to compare HEAD with`)
  if (head.status !== 200) {
    step.check({
      ok: false,
      rule: RULE,
      target: 'status',
      matcher: 'equals',
      expected: 200,
      actual: head.status,
      message: `GET of the activity answered 200 but HEAD (${how}) answered ${head.status} (§4 endpoint 9: 200, headers only)`,
    })
    return
  }
  // A header HEAD leaves out is judged by HEAD-HEADERS (§4 endpoint 9 lists them); here only values HEAD gives.
  if (head.headers['content-length'] !== undefined) compareLength(step, get, head, how)
  if (head.headers['content-type'] !== undefined) compareType(step, get, head, how)
  compareLastModified(step, get, head, how)
}

function compareLength(step: SurveyStep, get: SurveyExchange, head: SurveyExchange, how: string): void {
  const okLength = Number(head.headers['content-length']) === get.wireBytes
  step.check({
    ok: okLength,
    rule: RULE,
    target: 'headers.content-length',
    matcher: 'equals',
    expected: get.wireBytes,
    actual: head.headers['content-length'],
    message: okLength
      ? 'HEAD counts the bytes GET sends'
      : `HEAD (${how}) announces Content-Length ${head.headers['content-length'] ?? '(none)'} but GET with the same headers sent ${get.wireBytes} body bytes${get.headers['content-encoding'] ? ` (Content-Encoding ${get.headers['content-encoding']})` : ''} (§4 endpoint 9; RFC 9110 §9.3.2)`,
  })
}

function compareType(step: SurveyStep, get: SurveyExchange, head: SurveyExchange, how: string): void {
  const sameType = essence(head.headers['content-type']) === essence(get.headers['content-type'])
  step.check({
    ok: sameType,
    rule: RULE,
    target: 'headers.content-type',
    matcher: 'equals',
    expected: get.headers['content-type'],
    actual: head.headers['content-type'],
    message: sameType
      ? 'HEAD names the type GET sends'
      : `HEAD (${how}) names Content-Type ${head.headers['content-type'] ?? '(none)'} but GET sends ${get.headers['content-type'] ?? '(none)'}`,
  })
}

function compareLastModified(step: SurveyStep, get: SurveyExchange, head: SurveyExchange, how: string): void {
  // Compared as instants, and only when both are HTTP dates: a missing or malformed one is judged by the Last-Modified rules.
  const [getDate, headDate] = [get, head].map((exchange) => parseHttpDate(exchange.headers['last-modified'] ?? ''))
  if (getDate === undefined || headDate === undefined) return
  const sameDate = getDate === headDate
  step.check({
    ok: sameDate,
    rule: RULE,
    target: 'headers.last-modified',
    matcher: 'equals',
    expected: get.headers['last-modified'],
    actual: head.headers['last-modified'],
    message: sameDate
      ? 'HEAD gives the Last-Modified GET gives'
      : `HEAD (${how}) gives Last-Modified ${head.headers['last-modified'] ?? '(none)'} but GET gives ${get.headers['last-modified'] ?? '(none)'} for an activity nothing changed`,
  })
}

function essence(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase()
}
