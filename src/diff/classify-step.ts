import type { AssertionResult } from '../model/result.js'
import type { Rule } from '../model/scenario.js'
import type { RawDifference } from './compare-answers.js'
import type { Difference } from './diff-result.js'
import { findOpenChoice, UNCLASSIFIED, type StepContext } from '../spec/open-choices.js'
import { HTTP_HEADERS, isSpecField, SPEC_HEADERS } from '../spec/spec-names.js'

/** The checks of one step on each side (empty for a recording, which judged nothing). */
export interface StepChecks {
  readonly new: readonly AssertionResult[]
  readonly reference: readonly AssertionResult[]
}

/**
 * Files each difference of one step: a check that fails on one side only makes a conformance
 * difference and takes the raw differences at its place with it; a header or field the spec does not
 * name is an extension; the rest is an open choice, with the sentence that leaves it open.
 */
export function classifyStep(
  raw: readonly RawDifference[],
  checks: StepChecks,
  step: StepContext,
  rules: readonly Rule[],
): Difference[] {
  const conformance = conformanceDifferences(checks, rules)
  const rest = raw.filter((d) => !conformance.some((c) => overlaps(c.path, d.path)))
  return [...conformance, ...rest.map((d) => classifyRaw(d, step))]
}

function classifyRaw(d: RawDifference, step: StepContext): Difference {
  const values = { new: d.new, reference: d.reference }
  if (isExtension(d))
    return {
      class: 'extension',
      kind: d.where === 'header' ? 'extra-header' : 'extra-field',
      path: d.path,
      ...values,
      section: '',
      note: `only the ${d.new !== undefined ? 'new' : 'reference'} server sends ${d.where === 'header' ? 'this header' : 'this field'}; the spec does not name it`,
    }
  const choice = findOpenChoice(d, step)
  if (choice)
    return {
      class: 'open-choice',
      kind: choice.kind,
      path: d.path,
      ...values,
      section: choice.section,
      quote: choice.quote,
    }
  return {
    class: 'open-choice',
    kind: UNCLASSIFIED.kind,
    path: d.path,
    ...values,
    section: UNCLASSIFIED.section,
    note: UNCLASSIFIED.about,
  }
}

/** A header or body field only one side sends that the spec does not name. */
function isExtension(d: RawDifference): boolean {
  if (d.nature !== 'presence') return false
  if (d.where === 'header') return !SPEC_HEADERS.has(d.name) && !HTTP_HEADERS.has(d.name)
  return d.where === 'body' && d.path !== 'body' && !isSpecField(d.name)
}

/** Failed checks (not warnings) whose twin on the other side passed or was not made. */
function conformanceDifferences(checks: StepChecks, rules: readonly Rule[]): Difference[] {
  const found: Difference[] = []
  const key = (a: AssertionResult): string => `${a.rules.join(',')}|${a.target}|${a.matcher}`
  const failedOn = (mine: readonly AssertionResult[]): AssertionResult[] =>
    mine.filter((a) => !a.ok && a.severity === 'failure')
  for (const [side, mine, theirs] of [
    ['new', checks.new, checks.reference],
    ['reference', checks.reference, checks.new],
  ] as const) {
    const theirFailures = new Set(failedOn(theirs).map(key))
    for (const assertion of failedOn(mine)) {
      if (theirFailures.has(key(assertion))) continue
      const twin = theirs.find((other) => key(other) === key(assertion))
      const rule = assertion.rules[0] ?? ''
      const catalogued = rules.find((r) => r.id === rule)
      found.push({
        class: 'conformance',
        kind: rule,
        path: assertion.target,
        ...(side === 'new'
          ? { new: assertion.actual, reference: twin?.actual }
          : { reference: assertion.actual, new: twin?.actual }),
        section: catalogued?.section ?? '',
        quote: catalogued?.quote,
        note: `fails on the ${side} server: ${assertion.message}`,
      })
    }
  }
  return found
}

function overlaps(a: string, b: string): boolean {
  const within = (inner: string, outer: string): boolean =>
    inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`)
  return within(a, b) || within(b, a)
}
