// The same schema problem on many array items, told once: the run's reports (execute/schema-check.ts)
// and the proxy's findings (proxy/analyze/findings.ts) both group them this way.
import { pointerSegments } from '../shared/json-pointer.js'
import type { SchemaProblem } from './schema-problem.js'

export interface RepeatedProblem {
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
export function collapseRepeats(problems: readonly SchemaProblem[], body: unknown): RepeatedProblem[] {
  const groups = new Map<string, { problem: SchemaProblem; count: number }>()
  for (const problem of problems) {
    const key = [problem.rule, problem.severity, wildcardPointer(problem.pointer), generaliseMessage(problem).replace(/, found .*$/s, '')].join('\u0000')
    const group = groups.get(key)
    if (group) group.count++
    else groups.set(key, { problem, count: 1 })
  }
  return [...groups.values()].map(({ problem, count }) => ({ problem, count, of: count === 1 ? 1 : arrayLength(body, problem.pointer) ?? count }))
}

/** `12 of 25 items: /items/*\/has_map must be … (the first at /items/3/has_map)`; a single problem as it is. */
export function describeRepeated({ problem, count, of }: RepeatedProblem): string {
  return count === 1 ? problem.message : `${count} of ${of} items: ${generaliseMessage(problem)} (the first at ${problem.pointer})`
}

/** `/items/3/has_map` → `/items/*\/has_map`. */
export function wildcardPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*')
}

function generaliseMessage({ message, pointer }: SchemaProblem): string {
  return pointer === '' ? message : message.split(pointer).join(wildcardPointer(pointer))
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
