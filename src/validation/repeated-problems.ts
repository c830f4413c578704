// The same schema problem on many array items, told once: the run's reports (execute/step/schema-check.ts)
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
  const tally = new RepeatTally()
  for (const problem of problems) tally.add(problem)
  return tally.collapsed(body)
}

/**
 * Groups problems as they come, keeping only the first of each group and a count, so a caller that
 * finds problems a slice at a time (sliced-validation.ts) never holds them all.
 */
export class RepeatTally {
  readonly #groups = new Map<string, { problem: SchemaProblem; count: number }>()
  /** Per severity (errors, warnings, irregularities, as validateRepresentation lists them), the groups of a sliced body in order. */
  readonly #bySeverity: { problem: SchemaProblem; count: number }[][] = [[], [], []]
  /**
   * Per severity, where the next group of the sliced array goes: after its groups so far, before what follows the
   * array; undefined until the array has one.
   */
  readonly #arrayEnd: (number | undefined)[] = [undefined, undefined, undefined]
  #sliced = false
  /**
   * Groups of array items by rule and severity, each with its pointer after the item and its message between the
   * pointer and the found value.
   */
  readonly #itemShapes = new Map<string, Map<string, ItemShape[]>>()

  /**
   * Counts a problem. `first` makes the group's example when the problem starts a group (a problem
   * found in a slice, its pointer still relative to the slice, is moved to its true place only then).
   * `inArray`: the problem is inside the array judged a slice at a time. A group of it first met in a
   * later slice goes after the array's groups met so far, where the whole array's would have been.
   */
  add(
    problem: SchemaProblem,
    options: { first?: (problem: SchemaProblem) => SchemaProblem; inArray?: boolean } = {},
  ): void {
    const key = repeatKey(problem)
    const group = this.#groups.get(key)
    if (group) {
      group.count++
      return
    }
    const made = { problem: options.first ? options.first(problem) : problem, count: 1 }
    this.#groups.set(key, made)
    const rank = problem.severity === 'error' ? 0 : problem.severity === 'warning' ? 1 : 2
    const list = this.#bySeverity[rank]!
    if (options.inArray) {
      this.#sliced = true
      const at = this.#arrayEnd[rank] ?? list.length
      list.splice(at, 0, made)
      this.#arrayEnd[rank] = at + 1
    } else {
      list.push(made)
    }
  }

  /**
   * Counts a problem of an array item whose pointer opens with `pointer.slice(0, itemEnd)` (`/items/3`):
   * as `add(…, { inArray: true })`, but a problem of the same shape as one seen before (the same rule,
   * severity, pointer after the item and message up to the found value) is counted without building
   * its key. Problems whose shape cannot be read that way go through `add`.
   */
  addItem(problem: SchemaProblem, itemEnd: number, first: (problem: SchemaProblem) => SchemaProblem): void {
    const { rule, severity, pointer, message } = problem
    const readable =
      message.startsWith(pointer) &&
      !message.includes(pointer, pointer.length) &&
      !pointer.includes(',') &&
      !hasIndexSegment(pointer, itemEnd)
    if (!readable) {
      this.add(problem, { inArray: true, first })
      return
    }
    let bySeverity = this.#itemShapes.get(rule)
    if (!bySeverity) this.#itemShapes.set(rule, (bySeverity = new Map()))
    let shapes = bySeverity.get(severity)
    if (!shapes) bySeverity.set(severity, (shapes = []))
    for (const shape of shapes) {
      const tailEnd = pointer.length + shape.tail.length
      if (
        pointer.length - itemEnd === shape.suffix.length &&
        pointer.endsWith(shape.suffix) &&
        message.startsWith(shape.tail, pointer.length) &&
        (message.length === tailEnd || message.startsWith(', found ', tailEnd))
      ) {
        shape.group.count++
        return
      }
    }
    const found = message.indexOf(', found ', pointer.length)
    const key = repeatKey(problem)
    const known = this.#groups.get(key)
    if (known) known.count++
    else this.add(problem, { inArray: true, first })
    shapes.push({
      suffix: pointer.slice(itemEnd),
      tail: message.slice(pointer.length, found === -1 ? undefined : found),
      group: this.#groups.get(key)!,
    })
  }

  /** The groups, each with how many items the array it walks holds (`of`). */
  collapsed(body: unknown): RepeatedProblem[] {
    const groups = this.#sliced ? this.#bySeverity.flat() : [...this.#groups.values()]
    return groups.map(({ problem, count }) => ({
      problem,
      count,
      of: count === 1 ? 1 : (arrayLength(body, problem.pointer) ?? count),
    }))
  }
}

interface ItemShape {
  /** The pointer after the item: `/uri` of `/items/3/uri`. */
  readonly suffix: string
  /** The message after the pointer, up to `, found `. */
  readonly tail: string
  readonly group: { problem: SchemaProblem; count: number }
}

/** Whether a segment of the pointer after `from` is an index (all digits). */
function hasIndexSegment(pointer: string, from: number): boolean {
  let segmentStart = from
  let digits = 0
  for (let at = from; at <= pointer.length; at += 1) {
    const code = at === pointer.length ? 47 : pointer.charCodeAt(at) // 47 is '/'
    if (code === 47) {
      if (digits > 0 && digits === at - segmentStart) return true
      segmentStart = at + 1
      digits = 0
    } else if (code >= 48 && code <= 57) digits += 1
  }
  return false
}

/**
 * What makes two problems the same: their rule, severity, pointer with indices as `*` and message
 * up to the found value.
 */
function repeatKey(problem: SchemaProblem): string {
  const message = generaliseMessage(problem)
  const found = message.indexOf(', found ')
  return `${problem.rule}\u0000${problem.severity}\u0000${wildcardPointer(problem.pointer)}\u0000${found === -1 ? message : message.slice(0, found)}`
}

/** `12 of 25 items: /items/*\/has_map must be … (the first at /items/3/has_map)`; a single problem as it is. */
export function describeRepeated({ problem, count, of }: RepeatedProblem): string {
  return count === 1
    ? problem.message
    : `${count} of ${of} items: ${generaliseMessage(problem)} (the first at ${problem.pointer})`
}

/** `/items/3/has_map` → `/items/*\/has_map`. */
export function wildcardPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*')
}

function generaliseMessage({ message, pointer }: SchemaProblem): string {
  if (pointer === '') return message
  const wildcard = wildcardPointer(pointer)
  return wildcard === pointer ? message : message.replaceAll(pointer, wildcard)
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
