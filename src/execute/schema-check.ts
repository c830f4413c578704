import type { SchemaExpectation } from '../model/scenario.js'
import type { AssertionResult } from '../model/result.js'
import { isRepresentationName } from '../spec/representations.js'
import { RULE } from '../spec/rule-ids.js'
import type { SchemaProblem } from '../validation/schema-problem.js'
import { validateRepresentation } from '../validation/schema-registry.js'
import { pathOfPointer } from '../shared/json-path.js'
import { pointerSegments } from '../shared/json-pointer.js'

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
  const problems = validateRepresentation(expectation.representation, body)
  if (problems.length === 0) {
    return [{ ...base, ok: true, severity: 'failure', message: `body is a valid ${expectation.representation}` }]
  }
  return collapseRepeats(problems, body).map(({ problem, count, of }) => ({
    ...base,
    ok: false,
    severity: problem.severity === 'error' || (problem.severity === 'irregularity' && strict) ? 'failure' : 'warning',
    ...(problem.severity === 'irregularity' ? { irregularity: true } : {}),
    rules: [problem.rule],
    target: `body${pathOfPointer(problem.pointer)}`,
    message: count === 1 ? problem.message : `${count} of ${of} items: ${generalise(problem.message, problem.pointer)} (the first at ${problem.pointer})`,
  }))
}

interface Repeated {
  /** The first occurrence: its pointer and value are the evidence shown. */
  readonly problem: SchemaProblem
  readonly count: number
  /** How many items the array holds. */
  readonly of: number
}

/**
 * The same problem on many array items is one problem: `/items/*\/has_map must be …` on 25 of 25
 * items reads as one line, with the first item as its example. Problems are the same when their
 * rule, severity, pointer with indices as `*` and message up to the found value are.
 */
function collapseRepeats(problems: readonly SchemaProblem[], body: unknown): Repeated[] {
  const groups = new Map<string, { problem: SchemaProblem; count: number }>()
  for (const problem of problems) {
    const key = [problem.rule, problem.severity, wildcard(problem.pointer), generalise(problem.message, problem.pointer).replace(/, found .*$/s, '')].join('\u0000')
    const group = groups.get(key)
    if (group) group.count++
    else groups.set(key, { problem, count: 1 })
  }
  return [...groups.values()].map(({ problem, count }) => ({ problem, count, of: count === 1 ? 1 : arrayLength(body, problem.pointer) ?? count }))
}

/** `/items/3/has_map` → `/items/*\/has_map`. */
function wildcard(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*')
}

function generalise(message: string, pointer: string): string {
  return pointer === '' ? message : message.split(pointer).join(wildcard(pointer))
}

/** The length of the array the first `*` of the pointer walks. */
function arrayLength(body: unknown, pointer: string): number | undefined {
  let value = body
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(value)) return value.length
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return undefined
}
