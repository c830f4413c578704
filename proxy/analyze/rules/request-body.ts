import { validateRepresentation } from '../../../src/validation/schema-registry.js'
import { finding, fromSchemaProblems } from '../findings.js'
import type { CheckDefinition } from '../exchange-view.js'

/** §2.4, §2.5, §4 endpoints 6–7: the request body of a write against its schema. */
export const requestBody: CheckDefinition = {
  name: 'request-body',
  description: 'The body of a write is JSON and matches the schema of its representation (§2.4, §2.5, §4).',
  check(view) {
    const endpoint = view.endpoint
    if (endpoint?.requestBody === undefined) return []
    const body = view.request.body
    const rule = endpoint.requestBodyRule
    const label = `§4 endpoint ${endpoint.row}`
    if (body.size === 0)
      return [
        finding('violation', 'request', rule, `${label} sends a ${endpoint.requestBody} body; this request has none`),
      ]
    if (body.truncated)
      return [finding('note', 'request', rule, 'request body longer than --max-body-bytes: not validated')]
    if (body.json === undefined)
      return [finding('violation', 'request', rule, `request body is not JSON (${body.jsonError ?? 'binary'})`)]
    return fromSchemaProblems(validateRepresentation(endpoint.requestBody, body.json), body.json, 'request', rule)
  },
}
