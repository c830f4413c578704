// §4 rule 3 on existing activities: "When a read ... carries If-Modified-Since (an HTTP date in GMT)
// and the feed or activity has not changed since then, the response is 304 with no body. Otherwise
// the normal response is returned." Sent in all three HTTP-date forms a recipient must accept
// (RFC 9110 §5.6.7), equal to, earlier and later than the activity's own Last-Modified, and an
// invalid date, which a recipient must ignore (RFC 9110 §13.1.3). HEAD may always answer 200; it may
// answer 304 only where GET would.
import { parseHttpDate } from '../../../validation/time-formats.js'
import { formatHttpDateAs, HTTP_DATE_FORMS, type HttpDateForm } from '../http-date-forms.js'
import { SurveyStep, surveyScenario, surveySource } from '../survey-result.js'
import type { SampledActivity } from '../pick-sample.js'
import { nothingSampled, type SurveyCheck, type SurveyFacts } from '../survey-facts.js'

const NOT_MODIFIED = 'COND-ACTIVITY-NOT-MODIFIED'
const MODIFIED = 'COND-ACTIVITY-MODIFIED'
const DAY_MS = 86_400_000
const INVALID_DATE = 'yesterday, around noon'

interface Probe {
  readonly method: 'GET' | 'HEAD'
  readonly label: string
  readonly header: string
  /** 304 must come (GET, unchanged since the date), 200 must come (changed, or no valid date), or either (HEAD, unchanged). */
  readonly expect: 304 | 200 | 'either'
}

export const checkConditionalReads: SurveyCheck = async (facts) => {
  const started = performance.now()
  const steps: SurveyStep[] = []
  for (const sampled of facts.sample) {
    if (sampled.lastModifiedDoubt) {
      const step = new SurveyStep(`conditional reads of ${sampled.item.uri}`, surveySource('conditional-reads'), [
        NOT_MODIFIED,
        MODIFIED,
      ])
      step.skip(sampled.lastModifiedDoubt)
      steps.push(step)
    }
    if (sampled.lastModified === undefined) continue
    for (const probe of probesOf(sampled)) steps.push(await judge(facts, sampled, probe))
  }
  const none =
    nothingSampled(facts) ??
    (facts.sample.every((s) => s.lastModified === undefined)
      ? 'no sampled activity answered a parseable Last-Modified to date the conditional reads from'
      : undefined)
  return surveyScenario(
    {
      id: 'survey-conditional-reads',
      title:
        'Each sampled existing activity answers If-Modified-Since in every HTTP-date form: 304 when unchanged since the date, the activity otherwise',
      rules: [NOT_MODIFIED, MODIFIED],
    },
    steps,
    started,
    none,
  )
}

function probesOf(sampled: SampledActivity): Probe[] {
  const lastModified = sampled.lastModified!
  const probes: Probe[] = []
  // RFC 850 writes two year digits, read as the nearest past century within 50 years: skip it for older dates.
  const forms = HTTP_DATE_FORMS.filter(
    (form) => form !== 'RFC 850' || new Date(lastModified).getUTCFullYear() > new Date().getUTCFullYear() - 49,
  )
  for (const form of forms)
    probes.push({
      method: 'GET',
      label: `equal to Last-Modified, ${form}`,
      header: formatHttpDateAs(lastModified, form),
      expect: 304,
    })
  for (const form of forms)
    probes.push({
      method: 'GET',
      label: `a day before Last-Modified, ${form}`,
      header: formatHttpDateAs(lastModified - DAY_MS, form),
      expect: 200,
    })
  const served = parseHttpDate(sampled.read.headers['date'] ?? '')
  // Later than Last-Modified, but never later than the server's own clock said when it answered.
  const later = served === undefined ? undefined : Math.min(lastModified + DAY_MS, served)
  if (later !== undefined && later > lastModified)
    probes.push({
      method: 'GET',
      label: 'later than Last-Modified, IMF-fixdate',
      header: formatHttpDateAs(later, 'IMF-fixdate'),
      expect: 304,
    })
  probes.push({ method: 'GET', label: 'an invalid date', header: INVALID_DATE, expect: 200 })
  probes.push({
    method: 'HEAD',
    label: 'equal to Last-Modified, IMF-fixdate',
    header: formatHttpDateAs(lastModified, 'IMF-fixdate' satisfies HttpDateForm),
    expect: 'either',
  })
  probes.push({
    method: 'HEAD',
    label: 'a day before Last-Modified, IMF-fixdate',
    header: formatHttpDateAs(lastModified - DAY_MS, 'IMF-fixdate'),
    expect: 200,
  })
  probes.push({ method: 'HEAD', label: 'an invalid date', header: INVALID_DATE, expect: 200 })
  return probes
}

async function judge(facts: SurveyFacts, sampled: SampledActivity, probe: Probe): Promise<SurveyStep> {
  const rule = probe.expect === 200 ? MODIFIED : NOT_MODIFIED
  const step = new SurveyStep(
    `${probe.method} ${sampled.item.uri} with If-Modified-Since ${probe.label} (${probe.header})`,
    surveySource('conditional-reads'),
    [rule],
  )
  const exchange = step.show(
    await facts.reader.send({
      method: probe.method,
      target: sampled.item.uri,
      accept: 'FitnessActivity',
      headers: { 'if-modified-since': probe.header },
    }),
  )
  if (exchange.error) return step
  const allowed = probe.expect === 'either' ? [200, 304] : [probe.expect]
  const ok = allowed.includes(exchange.status)
  step.check({
    ok,
    rule,
    target: 'status',
    matcher: 'oneOf',
    expected: allowed,
    actual: exchange.status,
    message: ok ? `answered ${exchange.status}` : messageOf(probe, sampled, exchange.status),
  })
  if (exchange.status === 304 && probe.method === 'GET') {
    const empty = exchange.wireBytes === 0
    step.check({
      ok: empty,
      rule: NOT_MODIFIED,
      target: 'bodyBytes',
      matcher: 'equals',
      expected: 0,
      actual: exchange.wireBytes,
      message: empty
        ? '304 without a body'
        : `the 304 carries ${exchange.wireBytes} body bytes (§4 rule 3: "304 with no body")`,
    })
  }
  return step
}

function messageOf(probe: Probe, sampled: SampledActivity, status: number): string {
  const lastModified = sampled.read.headers['last-modified']
  if (probe.expect === 304)
    return `the activity has not changed since ${probe.header} (its Last-Modified is ${lastModified}), so §4 rule 3 asks for 304, but it answered ${status}${probe.label.includes('RFC 850') || probe.label.includes('asctime') ? '; RFC 9110 §5.6.7: a recipient MUST accept this obsolete form' : ''}`
  if (probe.label.includes('invalid'))
    return `If-Modified-Since "${probe.header}" is not an HTTP date, and RFC 9110 §13.1.3 says a recipient MUST ignore it: the normal 200 response was due (§4 rule 3), but it answered ${status}`
  return `the activity changed after ${probe.header} (its Last-Modified is ${lastModified}), so the normal 200 response was due (§4 rule 3 "Otherwise the normal response is returned")${probe.method === 'HEAD' ? '; HEAD may answer 304 only where GET would' : ''}, but it answered ${status}`
}
