import type { SchemaExpectation } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import { isRepresentationName } from '../../spec/representations.js'
import { RULE } from '../../spec/rule-ids.js'
import { describeRepeated } from '../../validation/repeated-problems.js'
import { tallyRepresentation } from '../../validation/sliced-validation.js'
import { pathOfPointer } from '../../shared/json-path.js'

/**
 * The body against the representation's schema. Errors fail; listed fields that are absent warn; the
 * §2.2 irregularities warn, or fail under --strict. A large array is judged a slice at a time,
 * giving the event loop back between slices (sliced-validation.ts); `signal` stops it there.
 */
export async function checkSchema(
  expectation: SchemaExpectation,
  body: unknown,
  bodyText: string,
  options: { strict: boolean; signal?: AbortSignal },
): Promise<AssertionResult[]> {
  const base = {
    rules: expectation.rules,
    target: 'body',
    matcher: 'schema',
    expected: expectation.representation,
    at: expectation.at,
  }
  if (!isRepresentationName(expectation.representation)) {
    return [{ ...base, ok: false, severity: 'failure', message: `no schema for ${expectation.representation}` }]
  }
  if (body === undefined) {
    const what =
      bodyText.length === 0 ? 'there is no body' : `the body is not JSON: ${JSON.stringify(bodyText.slice(0, 80))}`
    return [
      {
        ...base,
        ok: false,
        severity: 'failure',
        rules: [RULE.bodyIsJson],
        message: `expected a ${expectation.representation} JSON body, but ${what}`,
      },
    ]
  }
  const {
    repeated: problems,
    checkedRules,
    stopped,
  } = await tallyRepresentation(expectation.representation, body, options.signal ? { signal: options.signal } : {})
  const interrupted: AssertionResult[] = stopped
    ? [
        {
          ...base,
          ok: false,
          severity: 'warning',
          target: `body${pathOfPointer(stopped.pointer)}`,
          message: `only the first ${stopped.judged} of ${stopped.of} items were judged: the run was interrupted`,
        },
      ]
    : []
  // A rule whose schema keyword (or irregularity) was evaluated and found nothing passed: reports count it as covered.
  const withProblems = new Set(problems.map((repeated) => repeated.problem.rule))
  const held = [...new Set([...expectation.rules, ...checkedRules])].filter((rule) => !withProblems.has(rule))
  if (problems.length === 0) {
    // Interrupted, the body is not known valid: no passing assertion, no rule covered.
    return stopped
      ? interrupted
      : [
          {
            ...base,
            rules: held,
            ok: true,
            severity: 'failure',
            message: `body is a valid ${expectation.representation}`,
          },
        ]
  }
  const rest: AssertionResult[] =
    held.length > 0
      ? [
          {
            ...base,
            rules: held,
            ok: true,
            severity: 'failure',
            message: `the rest of the body holds the ${expectation.representation} rules`,
          },
        ]
      : []
  const failed = problems.map((repeated): AssertionResult => ({
    ...base,
    ok: false,
    severity:
      repeated.problem.severity === 'error' || (repeated.problem.severity === 'irregularity' && options.strict)
        ? 'failure'
        : 'warning',
    ...(repeated.problem.severity === 'irregularity' ? { irregularity: true } : {}),
    rules: [repeated.problem.rule],
    target: `body${pathOfPointer(repeated.problem.pointer)}`,
    message: describeRepeated(repeated),
  }))
  return [...failed, ...rest, ...interrupted]
}
