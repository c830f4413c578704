// A large array judged a slice at a time. A feed page of hundreds of thousands of items with a fault
// each used to become a problem object per fault before they were collapsed, and held the event loop
// for seconds: the other scenarios' answers, which had come in meanwhile, were read only after
// their timeouts had fired and were reported as the server's. Here each slice's problems are counted
// into their groups (repeated-problems.ts) and dropped, and the loop is given back between slices, so
// other answers are read and signals handled while a page is judged.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RepresentationName } from '../spec/representations.js'
import { escapePointerSegment } from '../shared/json-pointer.js'
import { RepeatTally, type RepeatedProblem } from './repeated-problems.js'
import type { SchemaProblem } from './schema-problem.js'
import { checkRepresentation, sliceableMember } from './schema-registry.js'

/** Items judged between two turns of the event loop: ~10 ms of work for a feed item with several problems. */
const SLICE_ITEMS = 1000

export interface TalliedProblems {
  readonly repeated: RepeatedProblem[]
  /** Every rule the judging evaluated (checkRepresentation's checkedRules, over all slices). */
  readonly checkedRules: readonly string[]
  /**
   * Set when the judging stopped before the end (the run was interrupted): the first `judged` items of the array at
   * `pointer` were judged.
   */
  readonly stopped?: { readonly pointer: string; readonly judged: number; readonly of: number }
}

/**
 * The problems of a representation's body, collapsed as collapseRepeats tells them. A body with an
 * array of more than two slices of items, whose schema judges each item on its own, is judged a slice
 * at a time; any other body at once, as before.
 */
export async function tallyRepresentation(
  name: RepresentationName,
  body: unknown,
  options: { signal?: AbortSignal; sliceItems?: number } = {},
): Promise<TalliedProblems> {
  const sliceItems = options.sliceItems ?? SLICE_ITEMS
  const member = sliceableMember(name, body, 2 * sliceItems + 1)
  const tally = new RepeatTally()
  if (member === undefined) {
    const { problems, checkedRules } = checkRepresentation(name, body)
    for (const problem of problems) tally.add(problem)
    return { repeated: tally.collapsed(body), checkedRules }
  }
  const checked = new Set<string>()
  const whole = body as Record<string, unknown>
  const items = whole[member] as readonly unknown[]
  const prefix = `/${escapePointerSegment(member)}/`
  for (let start = 0; start < items.length; start += sliceItems) {
    if (start > 0) {
      await nextTurn()
      if (options.signal?.aborted)
        return {
          repeated: tally.collapsed(body),
          checkedRules: [...checked],
          stopped: { pointer: prefix.slice(0, -1), judged: start, of: items.length },
        }
    }
    // Same keys in the same order, so that every problem is found as in the whole body.
    const slice = { ...whole, [member]: items.slice(start, start + sliceItems) }
    const { problems, checkedRules } = checkRepresentation(name, slice)
    for (const rule of checkedRules) checked.add(rule)
    for (const problem of problems) {
      const itemEnd = itemEndOf(problem.pointer, prefix)
      if (itemEnd === undefined) {
        if (start === 0) tally.add(problem) // outside the array: the same in every slice, counted once
      } else {
        tally.addItem(problem, itemEnd, (found) => movedBy(found, prefix, itemEnd, start))
      }
    }
  }
  return { repeated: tally.collapsed(body), checkedRules: [...checked] }
}

/** Where the item's part of a pointer inside the array ends (`/items/3/uri` → 8), or undefined outside the array. */
function itemEndOf(pointer: string, prefix: string): number | undefined {
  if (!pointer.startsWith(prefix)) return undefined
  let end = prefix.length
  while (end < pointer.length && pointer.charCodeAt(end) >= 48 && pointer.charCodeAt(end) <= 57) end += 1
  const index = end - prefix.length
  const wellFormed =
    index > 0 &&
    (index === 1 || pointer.charCodeAt(prefix.length) !== 48) &&
    (end === pointer.length || pointer.charCodeAt(end) === 47)
  return wellFormed ? end : undefined
}

/**
 * A problem of the item ending at `itemEnd` of a slice starting at `offset`, told at its place in the whole array
 * (messages open with their path).
 */
function movedBy(problem: SchemaProblem, prefix: string, itemEnd: number, offset: number): SchemaProblem {
  if (offset === 0) return problem
  const local = problem.pointer.slice(0, itemEnd)
  const global = prefix + String(Number(problem.pointer.slice(prefix.length, itemEnd)) + offset)
  const opensWithIt = problem.message.startsWith(local) && !/^\d/.test(problem.message.slice(local.length))
  return {
    ...problem,
    pointer: global + problem.pointer.slice(itemEnd),
    message: opensWithIt ? global + problem.message.slice(local.length) : problem.message,
  }
}
