import { parseHttpDate } from '../../../src/validation/time-formats.js'
import { finding } from '../findings.js'
import { headerOf, type CheckDefinition, type ExchangeView } from '../exchange-view.js'
import type { Finding } from '../../../src/model/exchange.js'

/**
 * §4 rule 3 judged on the answer alone: a 304 to an If-Modified-Since that is no HTTP date (which a
 * server MUST ignore, RFC 9110 §13.1.3: "the normal response is returned"), and an activity read
 * answered 200 whose own Last-Modified says it has not changed since the date asked about. What an
 * earlier exchange showed (a later Last-Modified) is judged in relations/conditional-history.ts.
 */
export const conditionalAnswer: CheckDefinition = {
  name: 'conditional-answer',
  description:
    'A conditional read is 304 exactly when the resource has not changed since If-Modified-Since, an invalid date being ignored (§4 rule 3; RFC 9110 §13.1.3).',
  check(view) {
    const endpoint = view.endpoint
    const status = view.response?.status
    const sent = headerOf(view.request, 'if-modified-since')
    if (endpoint === undefined || status === undefined || sent === undefined) return []
    const since = parseHttpDate(sent.trim())
    if (status === 304 && since === undefined) return invalidDateAnswered(view, sent)
    if (status === 200 && endpoint.row === 3 && since !== undefined) return unchangedAnsweredInFull(view, since)
    return []
  },
}

/** The rule a wrong conditional answer breaks on this route: HEAD is judged as GET would be (RFC 9110 §9.3.2). */
export function conditionalRules(view: ExchangeView): { notModified: string; modified: string } | undefined {
  if (view.endpoint?.row === 9) return { notModified: 'HEAD-MATCHES-GET', modified: 'HEAD-MATCHES-GET' }
  return view.endpoint?.conditional
}

function invalidDateAnswered(view: ExchangeView, sent: string): Finding[] {
  const rule = conditionalRules(view)?.modified
  if (rule === undefined) return []
  return [
    finding(
      'violation',
      'response',
      rule,
      `304 to If-Modified-Since "${sent}", which is no HTTP date: a recipient MUST ignore it (RFC 9110 §13.1.3), and §4 rule 3 then says "the normal response is returned"`,
    ),
  ]
}

/**
 * The 200's own Last-Modified is the server's word for when the activity last changed (§2.3). A date
 * later than it is judged only up to the server's own clock (its Date): a date in the future is one a
 * server may treat as invalid.
 */
function unchangedAnsweredInFull(view: ExchangeView, since: number): Finding[] {
  const response = view.response
  const lastModifiedText = response === undefined ? undefined : headerOf(response, 'last-modified')
  const lastModified = lastModifiedText === undefined ? undefined : parseHttpDate(lastModifiedText.trim())
  if (response === undefined || lastModified === undefined || lastModified > since) return []
  const dateText = headerOf(response, 'date')
  const now = dateText === undefined ? undefined : parseHttpDate(dateText.trim())
  if (since > lastModified && (now === undefined || since > now)) return []
  return [
    finding(
      'violation',
      'response',
      'COND-ACTIVITY-NOT-MODIFIED',
      `200 with the whole activity although its own Last-Modified (${lastModifiedText ?? ''}) is not later than If-Modified-Since (${headerOf(view.request, 'if-modified-since') ?? ''}): it has not changed since then, so §4 rule 3 says "the response is 304 with no body"`,
    ),
  ]
}
