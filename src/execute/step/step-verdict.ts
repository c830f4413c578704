// What a step's answer says, shaped from the checks evaluated on it: which failures stand (blame
// exactly within one answer), how pages and polls are told, what a rejection of our own body means.
// Pure: no request, no clock, no context; each rule is table-tested in test/unit/execute/step/step-verdict.test.ts.
import type { Step } from '../../model/scenario.js'
import type { AssertionResult } from '../../model/result.js'
import type { Scope } from '../../expression/evaluate-expression.js'
import { RULE } from '../../spec/rule-ids.js'
import { recordable } from './json-depth.js'

/**
 * The verdict of one answer: the checks evaluated on it, with a body that is not JSON blamed once,
 * the checks a wrong status or such a body stop left out, each value recordable, and with `follow`
 * each message saying its page.
 */
export function judgeAnswer(
  judged: readonly AssertionResult[],
  scope: Scope,
  step: Step,
  page?: number,
): AssertionResult[] {
  const prefix = page === undefined ? '' : `page ${page}: `
  return judgeOnlyWhatTheAnswerCanTell(blameBodyThatIsNotJson(judged, scope, step))
    .map((assertion) => (prefix ? { ...assertion, message: prefix + assertion.message } : assertion))
    .map(keepRecordable)
}

/**
 * Blame exactly within one answer: when its status is wrong, the answer is of another kind and its
 * other checks say nothing about their rules; when its body is not JSON, checks on the body say
 * nothing either. Those checks are left out (not judged) and the failure that stopped them says so.
 */
function judgeOnlyWhatTheAnswerCanTell(assertions: readonly AssertionResult[]): AssertionResult[] {
  const isFailure = (a: AssertionResult): boolean => !a.ok && a.severity === 'failure'
  const wrongStatus = assertions.find((a) => isFailure(a) && a.target === 'status')
  const notJson = assertions.find((a) => isFailure(a) && a.matcher === 'schema' && a.rules.includes(RULE.bodyIsJson))
  const blocker = wrongStatus ?? notJson
  if (!blocker) return [...assertions]
  const stopped = (a: AssertionResult): boolean =>
    a !== blocker &&
    (wrongStatus ? true : a.target === 'body' || a.target.startsWith('body.') || a.target.startsWith('body['))
  const left = assertions.filter((a) => stopped(a) && !a.ok)
  const note =
    left.length === 0
      ? ''
      : ` (${left.length} other failed check${left.length === 1 ? '' : 's'} on this answer not judged: ${[...new Set(left.flatMap((a) => a.rules))].join(', ') || 'no rule'})`
  return assertions.filter((a) => !stopped(a)).map((a) => (a === blocker ? { ...a, message: a.message + note } : a))
}

/**
 * Checks on `body.…` fail when the body is not JSON at all; the fault is then that one (the rule a
 * schema check files it under), not the rules of every field the checks looked for.
 */
function blameBodyThatIsNotJson(assertions: readonly AssertionResult[], scope: Scope, step: Step): AssertionResult[] {
  const text = typeof scope['bodyText'] === 'string' ? scope['bodyText'] : ''
  const isBodyCheck = (a: AssertionResult): boolean => a.target.startsWith('body.') || a.target.startsWith('body[')
  const failedOnBody = assertions.filter((a) => !a.ok && a.severity === 'failure' && isBodyCheck(a))
  const reported = assertions.some((a) => !a.ok && a.rules.includes(RULE.bodyIsJson))
  if (scope['body'] !== undefined || text.trim() === '' || failedOnBody.length === 0 || reported) return [...assertions]
  const notJson: AssertionResult = {
    ok: false,
    severity: 'failure',
    rules: [RULE.bodyIsJson],
    target: 'body',
    matcher: 'schema',
    message: `the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
    at: failedOnBody[0]!.at ?? step.at,
  }
  return [...assertions, notJson]
}

/** Expected and actual values travel into every report: too deep a value is replaced by a note. */
function keepRecordable(assertion: AssertionResult): AssertionResult {
  if (!('actual' in assertion) && !('expected' in assertion)) return assertion
  const actual = recordable(assertion.actual)
  const expected = recordable(assertion.expected)
  if (actual === assertion.actual && expected === assertion.expected) return assertion
  return {
    ...assertion,
    ...('actual' in assertion ? { actual } : {}),
    ...('expected' in assertion ? { expected } : {}),
  }
}

export function isJudgedOnFirstAnswer(assertion: AssertionResult): boolean {
  return assertion.target === 'status' || assertion.target === 'headers.content-type' || assertion.matcher === 'schema'
}

/** The same failed check on several pages is one failure naming the pages (`pages 1–4: …`), with the first page's values. */
export function collapsePages(pages: readonly (readonly AssertionResult[])[]): AssertionResult[] {
  const kept: AssertionResult[] = []
  const repeats = new Map<string, { index: number; pages: number[] }>()
  pages.forEach((assertions, page) => {
    for (const assertion of assertions) {
      const unprefixed = assertion.message.replace(/^page \d+: /, '')
      const key = [
        assertion.ok,
        assertion.severity,
        assertion.rules.join(','),
        assertion.target.replace(/\[\d+\]/g, '[*]'),
        unprefixed,
      ].join('\u0000')
      const seen = repeats.get(key)
      if (seen && !assertion.ok) {
        seen.pages.push(page + 1)
        continue
      }
      repeats.set(key, { index: kept.length, pages: [page + 1] })
      kept.push(assertion)
    }
  })
  for (const { index, pages: on } of repeats.values()) {
    if (on.length < 2) continue
    const assertion = kept[index]!
    kept[index] = {
      ...assertion,
      message: `${on.length} pages (${on[0]}–${on.at(-1)}): ${assertion.message.replace(/^page \d+: /, '')}`,
    }
  }
  return kept
}

export function pollingCapNote(step: Step, capMs: number): AssertionResult {
  return {
    ok: false,
    severity: 'warning',
    rules: [],
    target: 'eventually',
    matcher: 'eventually',
    message: `stopped resending: the run's polling budget (--max-polling ${Math.round(capMs / 1000)} s) is used up; the last answer is judged`,
    at: step.at,
  }
}

/** A 4xx to a body the suite wrote: the first failure says the server may reject our values, and what the scenario says of it. */
export function addRejectionHint(
  step: Step,
  answer: { readonly status: number; readonly sentBody: boolean },
  assertions: AssertionResult[],
): AssertionResult[] {
  const { status, sentBody } = answer
  if (!step.onRejected || !sentBody || status < 400 || status >= 500 || statusOf(assertions) === 'passed')
    return assertions
  const hint = ` — the server rejected the suite's own request body (${status}): ${step.onRejected}`
  let added = false
  return assertions.map((assertion) => {
    if (added || assertion.ok || assertion.severity !== 'failure') return assertion
    added = true
    return { ...assertion, message: assertion.message + hint }
  })
}

/** Every rule the step's checks and schema are filed under: what the step judges. */
export function rulesOf(step: Step): string[] {
  const own = [...step.expect.checks.flatMap((check) => check.rules), ...(step.expect.schema?.rules ?? [])]
  return [...new Set([...own, ...(step.parallel ?? []).flatMap((branch) => rulesOf(branch.step))])]
}

/** The rules a step's own checks are filed under (the step's `rule`, or the scenario's). */
export function stepRules(step: Step): readonly string[] {
  return step.expect.checks[0]?.rules ?? step.expect.schema?.rules ?? []
}

export function rebaseWarning(from: string, to: string, step: Step, rules: readonly string[]): AssertionResult {
  return {
    ok: false,
    severity: 'warning',
    rules,
    target: 'url',
    matcher: 'sameOrigin',
    message: `the server linked to another origin (${new URL(from).origin}); the request went to ${new URL(to).origin} instead so the token never leaves the server under test`,
    at: step.at,
  }
}

export function statusOf(assertions: readonly AssertionResult[]): 'passed' | 'failed' {
  return assertions.some((assertion) => !assertion.ok && assertion.severity === 'failure') ? 'failed' : 'passed'
}
