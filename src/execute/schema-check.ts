import type { SchemaExpectation } from '../model/scenario.js'
import type { AssertionResult } from '../model/result.js'
import { isRepresentationName } from '../spec/representations.js'
import { RULE } from '../spec/rule-ids.js'
import { checkRepresentation } from '../validation/schema-registry.js'
import { collapseRepeats, describeRepeated } from '../validation/repeated-problems.js'
import { pathOfPointer } from '../shared/json-path.js'

/**
 * The body against the representation's schema. Errors fail; listed fields that are absent warn; the
 * §2.2 irregularities warn, or fail under --strict.
 */
export function checkSchema(expectation: SchemaExpectation, body: unknown, bodyText: string, strict: boolean): AssertionResult[] {
  const base = { rules: expectation.rules, target: 'body', matcher: 'schema', expected: expectation.representation, at: expectation.at }
  if (!isRepresentationName(expectation.representation)) {
    return [{ ...base, ok: false, severity: 'failure', message: `no schema for ${expectation.representation}` }]
  }
  if (body === undefined) {
    const what = bodyText.length === 0 ? 'there is no body' : `the body is not JSON: ${JSON.stringify(bodyText.slice(0, 80))}`
    return [{ ...base, ok: false, severity: 'failure', rules: [RULE.bodyIsJson], message: `expected a ${expectation.representation} JSON body, but ${what}` }]
  }
  const { problems, checkedRules } = checkRepresentation(expectation.representation, body)
  // A rule whose schema keyword (or irregularity) was evaluated and found nothing passed: reports count it as covered.
  const withProblems = new Set(problems.map((problem) => problem.rule))
  const held = [...new Set([...expectation.rules, ...checkedRules])].filter((rule) => !withProblems.has(rule))
  if (problems.length === 0) {
    return [{ ...base, rules: held, ok: true, severity: 'failure', message: `body is a valid ${expectation.representation}` }]
  }
  const rest: AssertionResult[] = held.length > 0 ? [{ ...base, rules: held, ok: true, severity: 'failure', message: `the rest of the body holds the ${expectation.representation} rules` }] : []
  const failed = collapseRepeats(problems, body).map((repeated): AssertionResult => ({
    ...base,
    ok: false,
    severity: repeated.problem.severity === 'error' || (repeated.problem.severity === 'irregularity' && strict) ? 'failure' : 'warning',
    ...(repeated.problem.severity === 'irregularity' ? { irregularity: true } : {}),
    rules: [repeated.problem.rule],
    target: `body${pathOfPointer(repeated.problem.pointer)}`,
    message: describeRepeated(repeated),
  }))
  return [...failed, ...rest]
}
