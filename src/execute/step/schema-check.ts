import type { SchemaExpectation } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import { isRepresentationName } from '../../spec/representations.js'
import { RULE } from '../../spec/rule-ids.js'
import { describeRepeated } from '../../validation/repeated-problems.js'
import { tallyRepresentation } from '../../validation/sliced-validation.js'
import { pathOfPointer } from '../../shared/json-path.js'

/** What differs between the assertions of one schema check; the rest is the check's. */
interface Verdict {
  readonly ok: boolean
  readonly severity: AssertionResult['severity']
  readonly message: string
  readonly rules?: readonly string[]
  readonly target?: string
  readonly irregularity?: boolean
}

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
  // Key by key, not spread from a base object: in V8 a literal that starts with a spread and then adds
  // keys gets a hidden class of its own, and every assertion is kept until the run ends (docs/benchmarks.md).
  const assertion = (fields: Verdict): AssertionResult => ({
    rules: fields.rules ?? expectation.rules,
    target: fields.target ?? 'body',
    matcher: 'schema',
    expected: expectation.representation,
    at: expectation.at,
    ok: fields.ok,
    severity: fields.severity,
    ...(fields.irregularity ? { irregularity: true } : {}),
    message: fields.message,
  })
  if (!isRepresentationName(expectation.representation)) {
    return [assertion({ ok: false, severity: 'failure', message: `no schema for ${expectation.representation}` })]
  }
  if (body === undefined) {
    const what =
      bodyText.length === 0 ? 'there is no body' : `the body is not JSON: ${JSON.stringify(bodyText.slice(0, 80))}`
    return [
      assertion({
        ok: false,
        severity: 'failure',
        rules: [RULE.bodyIsJson],
        message: `expected a ${expectation.representation} JSON body, but ${what}`,
      }),
    ]
  }
  const {
    repeated: problems,
    checkedRules,
    stopped,
  } = await tallyRepresentation(expectation.representation, body, options.signal ? { signal: options.signal } : {})
  const interrupted: AssertionResult[] = stopped
    ? [
        assertion({
          ok: false,
          severity: 'warning',
          target: `body${pathOfPointer(stopped.pointer)}`,
          message: `only the first ${stopped.judged} of ${stopped.of} items were judged: the run was interrupted`,
        }),
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
          assertion({
            rules: held,
            ok: true,
            severity: 'failure',
            message: `body is a valid ${expectation.representation}`,
          }),
        ]
  }
  const rest: AssertionResult[] =
    held.length > 0
      ? [
          assertion({
            rules: held,
            ok: true,
            severity: 'failure',
            message: `the rest of the body holds the ${expectation.representation} rules`,
          }),
        ]
      : []
  const failed = problems.map((repeated) =>
    assertion({
      ok: false,
      severity:
        repeated.problem.severity === 'error' || (repeated.problem.severity === 'irregularity' && options.strict)
          ? 'failure'
          : 'warning',
      irregularity: repeated.problem.severity === 'irregularity',
      rules: [repeated.problem.rule],
      target: `body${pathOfPointer(repeated.problem.pointer)}`,
      message: describeRepeated(repeated),
    }),
  )
  return [...failed, ...rest, ...interrupted]
}
