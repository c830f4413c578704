import { validateRepresentation } from '../../../src/validation/schema-registry.js'
import { finding, fromSchemaProblems } from '../findings.js'
import { headerOf, type CheckDefinition, type ExchangeView } from '../exchange-view.js'
import { TextMemo } from '../text-memo.js'
import { mediaTypeOf, type RepresentationName } from '../../../src/spec/representations.js'
import { sameMediaType } from '../../../src/validation/media-type.js'
import type { Endpoint } from '../../../src/spec/endpoints.js'
import type { Finding } from '../../../src/model/exchange.js'

/**
 * §1 rule 2, §2 and §7: a success body (and a 403 body) is JSON and matches its schema; the schema
 * problems carry the irregularities of §2.2 and the notes (e.g. delete_health as text, §7). Any other
 * body that names one of the representations in its Content-Type (§1 rule 3: "Each representation has
 * its own media type") is validated as that representation wherever it appears: a Profile read on a
 * route §4 does not list, an Activity in a 404. A body that does not keep the promise its media type
 * makes misleads a client as much on such a route as on a listed one.
 */
export const responseBody: CheckDefinition = {
  name: 'response-body',
  description:
    'Success and 403 bodies match the schema of their representation; any other body is validated as the representation its Content-Type names; other +json bodies are JSON.',
  check(view) {
    const response = view.response
    if (response === undefined || view.method.toUpperCase() === 'HEAD') return []
    const body = response.body
    const contentType = headerOf(response, 'content-type') ?? ''
    const promised = promisedRepresentation(view.endpoint, response.status)
    const representation = responseRepresentationOf(view)
    if (representation === undefined) {
      if (body.size > 0 && !body.truncated && /[/+]json\b/i.test(contentType) && body.json === undefined) {
        return [
          finding(
            'violation',
            'response',
            'BODY-IS-JSON',
            `Content-Type says JSON but the body is not JSON (${body.jsonError ?? 'binary'})`,
          ),
        ]
      }
      return []
    }
    if (body.size === 0)
      return [
        finding(
          'violation',
          'response',
          promised?.emptyRule,
          `${response.status} without a body; §4 promises a ${representation}`,
        ),
      ]
    if (body.truncated)
      return [finding('note', 'response', undefined, 'response body longer than --max-body-bytes: not validated')]
    const checked = (): readonly Finding[] => checkRepresentation(representation, body.json, body.jsonError)
    // The findings are a function of the representation and the text alone: a text seen before is not validated again.
    return [...(body.text === undefined ? checked() : checkedBodies.get(representation, body.text, checked))]
  },
}

/**
 * The representation a response body is judged as: what §4 or §7 promises for its status, else the
 * one its Content-Type names. The recording redacts personal fields by the same answer, so a Profile
 * is masked by `--redact-personal` on any route it is validated on.
 */
export function responseRepresentationOf(view: ExchangeView): RepresentationName | undefined {
  const response = view.response
  if (response === undefined || view.method.toUpperCase() === 'HEAD') return undefined
  const promised = promisedRepresentation(view.endpoint, response.status)?.representation
  if (promised !== undefined || !hasContent(response.status, response.body.size)) return promised
  return namedRepresentation(headerOf(response, 'content-type') ?? '')
}

/** What §4 (a 200 of a row with a body) or §7 (a 403) promises, with the rule an empty body breaks. */
function promisedRepresentation(
  endpoint: Endpoint | undefined,
  status: number,
): { representation: RepresentationName; emptyRule: string } | undefined {
  if (endpoint === undefined) return undefined
  if (status === 403) return { representation: 'ErrorMessage', emptyRule: 'ERROR-FIELDS' }
  if (status === 200 && endpoint.responseBody !== undefined)
    return { representation: endpoint.responseBody, emptyRule: endpoint.statusRule }
  return undefined
}

/** The representations a server sends (§2.1–2.3, §2.6, §7), by the media type that names them. */
const RESPONSE_REPRESENTATIONS: readonly RepresentationName[] = [
  'User',
  'FitnessActivityFeed',
  'FitnessActivity',
  'Profile',
  'ErrorMessage',
]

/** A 204 or 304 body is judged by response-no-body.ts alone: validating it too would only repeat that it is there. */
function hasContent(status: number, size: number): boolean {
  return size > 0 && status >= 200 && status !== 204 && status !== 304
}

function namedRepresentation(contentType: string): RepresentationName | undefined {
  if (contentType === '') return undefined
  return RESPONSE_REPRESENTATIONS.find((name) => sameMediaType(contentType, mediaTypeOf(name)))
}

/** Bounded as every text memo is (text-memo.ts). */
const checkedBodies = new TextMemo<readonly Finding[]>()

function checkRepresentation(
  representation: RepresentationName,
  json: unknown,
  jsonError: string | undefined,
): Finding[] {
  if (json === undefined)
    return [finding('violation', 'response', 'BODY-IS-JSON', `body is not JSON (${jsonError ?? 'binary'})`)]
  const found = fromSchemaProblems(validateRepresentation(representation, json), json, 'response')
  if (representation === 'ErrorMessage') found.push(...deleteHealthAsText(json))
  return found
}

/** §7: delete_health is a boolean "carried as the text \"true\" or \"false\"" in the samples: allowed, noted. */
function deleteHealthAsText(body: unknown): Finding[] {
  const value = (body as { delete_health?: unknown } | null)?.delete_health
  if (value !== 'true' && value !== 'false') return []
  return [
    finding(
      'note',
      'response',
      'ERROR-FIELDS',
      `delete_health is carried as the text "${value}", as in the samples of §7 (the table says boolean)`,
      '/delete_health',
    ),
  ]
}
