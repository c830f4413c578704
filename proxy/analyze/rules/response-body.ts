import { validateRepresentation } from '../../../src/validation/schema-registry.js'
import { finding, fromSchemaProblems } from '../findings.js'
import { headerOf, type CheckDefinition } from '../exchange-view.js'
import { TextMemo } from '../text-memo.js'
import type { RepresentationName } from '../../../src/spec/representations.js'
import type { Finding } from '../../../src/model/exchange.js'

/**
 * §1 rule 2, §2 and §7: a success body (and a 403 body) is JSON and matches its schema; the schema
 * problems carry the irregularities of §2.2 and the notes (e.g. delete_health as text, §7).
 */
export const responseBody: CheckDefinition = {
  name: 'response-body',
  description: 'Success and 403 bodies are JSON and match the schema of their representation; other +json bodies are JSON.',
  check(view) {
    const endpoint = view.endpoint
    const response = view.response
    if (endpoint === undefined || response === undefined || endpoint.method === 'HEAD') return []
    const body = response.body
    let representation: RepresentationName | undefined
    let emptyRule: string | undefined
    if (response.status === 403) {
      representation = 'ErrorMessage'
      emptyRule = 'ERROR-FIELDS'
    } else if (response.status === 200 && endpoint.responseBody !== undefined) {
      representation = endpoint.responseBody
      emptyRule = endpoint.statusRule
    }
    if (representation === undefined) {
      const contentType = headerOf(response, 'content-type') ?? ''
      if (body.size > 0 && !body.truncated && /[/+]json\b/i.test(contentType) && body.json === undefined) {
        return [finding('violation', 'response', 'BODY-IS-JSON', `Content-Type says JSON but the body is not JSON (${body.jsonError ?? 'binary'})`)]
      }
      return []
    }
    if (body.size === 0) return [finding('violation', 'response', emptyRule, `${response.status} without a body; §4 promises a ${representation}`)]
    if (body.truncated) return [finding('note', 'response', undefined, 'response body longer than --max-body-bytes: not validated')]
    const checked = (): readonly Finding[] => checkRepresentation(representation, body.json, body.jsonError)
    // The findings are a function of the representation and the text alone: a text seen before is not validated again.
    return [...(body.text === undefined ? checked() : checkedBodies.get(representation, body.text, checked))]
  },
}

/** Texts of up to 64 KiB, 4 Mi characters in all (~8 MiB). */
const checkedBodies = new TextMemo<readonly Finding[]>({ maxChars: 4 * 1024 * 1024, maxTextChars: 64 * 1024 })

function checkRepresentation(representation: RepresentationName, json: unknown, jsonError: string | undefined): Finding[] {
  if (json === undefined) return [finding('violation', 'response', 'BODY-IS-JSON', `body is not JSON (${jsonError ?? 'binary'})`)]
  const found = fromSchemaProblems(validateRepresentation(representation, json), 'response')
  if (representation === 'ErrorMessage') found.push(...deleteHealthAsText(json))
  return found
}

/** §7: delete_health is a boolean "carried as the text \"true\" or \"false\"" in the samples: allowed, noted. */
function deleteHealthAsText(body: unknown): Finding[] {
  const value = (body as { delete_health?: unknown } | null)?.delete_health
  if (value !== 'true' && value !== 'false') return []
  return [finding('note', 'response', 'ERROR-FIELDS', `delete_health is carried as the text "${value}", as in the samples of §7 (the table says boolean)`, '/delete_health')]
}
