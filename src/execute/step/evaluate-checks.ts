import type { Check, CheckCondition } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import { evaluateExpression, unlistedWildcard, type Scope } from '../../expression/evaluate-expression.js'
import { renderTemplate, UndefinedPlaceholderError } from '../../expression/render-template.js'
import { MATCHERS } from '../../matchers/index.js'
import { formatValue } from '../../shared/format-value.js'

/**
 * Matchers that judge a list's elements or its length. On a path that maps `[*]` over an answer's list that is
 * absent or not a list they judge nothing: that the answer has the list is the schema's (or a `type: array`
 * check's) to judge, so one fault is blamed once (`every` would fail, `notContains` would pass, on no list).
 */
const LIST_MATCHERS: ReadonlySet<string> = new Set([
  'every',
  'contains',
  'notContains',
  'length',
  'minLength',
  'maxLength',
  'unique',
])

/** Applies checks to a response scope; each gives one assertion, passed or not, with expected and actual. */
export function evaluateChecks(checks: readonly Check[], scope: Scope): AssertionResult[] {
  return checks.map((check) => evaluateCheck(check, scope))
}

function evaluateCheck(check: Check, scope: Scope): AssertionResult {
  try {
    return judgeCheck(check, scope)
  } catch (error) {
    if (!(error instanceof UndefinedPlaceholderError)) throw error
    return assertionOf(
      check,
      false,
      {},
      `${check.path}: cannot compare, ${error.message} (an earlier step did not capture it)`,
    )
  }
}

function judgeCheck(check: Check, scope: Scope): AssertionResult {
  // The condition comes first: a check it leaves out renders nothing of its own, as its expected value
  // may read what the answer lacks (`${body.items | length}` on a page without items).
  const conditions: CheckCondition[] = (check.when ?? []).map((condition) => ({
    ...condition,
    expected: renderTemplate(condition.expected, scope),
  }))
  const unmet = conditions.find((condition) => !holds(condition, scope))
  if (unmet) return notJudged(check, `${check.path}: not judged, as ${unmet.path} is not ${describe(unmet)}`)
  const unlisted = LIST_MATCHERS.has(check.matcher) ? unlistedWildcard(check.path, scope) : undefined
  if (unlisted) {
    const found = unlisted.value === undefined ? 'absent' : `not a list (${formatValue(unlisted.value)})`
    return notJudged(
      check,
      `${check.path}: not judged, as ${unlisted.path} is ${found}; whether it must be a list is the schema's to judge`,
    )
  }
  const expected = renderTemplate(check.expected, scope)
  const actual = evaluateExpression(check.path, scope)
  const matcher = MATCHERS.get(check.matcher)
  if (!matcher) return assertionOf(check, false, { expected, actual }, `unknown matcher ${check.matcher}`)
  const ok = matcher.test(actual, expected)
  const description = matcher.describe(expected)
  // A length check shows the length it found ("25 items"), not the 25 items.
  const shown = matcher.describeActual?.(actual)
  const message = ok
    ? `${check.path} is ${description}`
    : `${check.path}: expected ${description}, got ${shown ?? formatValue(actual)}`
  return assertionOf(
    check,
    ok,
    shown !== undefined ? { expected, actual: shown } : actual === undefined ? { expected } : { expected, actual },
    message,
  )
}

/**
 * Key by key, in the order reports show them, rather than `{ ...base, ok, … }`: in V8 a literal that
 * starts with a spread and then adds keys gets a hidden class of its own, and every assertion is kept
 * until the run ends (docs/benchmarks.md).
 */
function assertionOf(
  check: Check,
  ok: boolean,
  values: { readonly expected?: unknown; readonly actual?: unknown },
  message: string,
  judgedNothing = false,
): AssertionResult {
  return {
    severity: check.severity,
    rules: check.rules,
    target: check.path,
    matcher: check.matcher,
    at: check.at,
    ok,
    ...(judgedNothing ? { notJudged: true } : {}),
    ...('expected' in values ? { expected: values.expected } : {}),
    ...('actual' in values ? { actual: values.actual } : {}),
    message,
  }
}

/** A check that judged nothing: it holds, and says so (`notJudged`), so that its rule is skipped, never passed. */
function notJudged(check: Check, message: string): AssertionResult {
  return assertionOf(check, true, {}, message, true)
}

function holds(condition: CheckCondition, scope: Scope): boolean {
  return MATCHERS.get(condition.matcher)?.test(evaluateExpression(condition.path, scope), condition.expected) ?? false
}

function describe(condition: CheckCondition): string {
  return MATCHERS.get(condition.matcher)?.describe(condition.expected) ?? condition.matcher
}
