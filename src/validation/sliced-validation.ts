// A large array judged a slice at a time (issue 25). A feed page of 400,000 items with one fault each
// used to become 2.4 million problem objects (1.3 GB) before they were collapsed, and held the event
// loop for ~9 s of CPU: the other scenarios' answers, which had come in meanwhile, were read only after
// their timeouts had fired and were reported as the server's. Here each slice's problems are counted
// into their groups (repeated-problems.ts) and dropped, and the loop is given back between slices, so
// other answers are read and signals handled while a page is judged.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RepresentationName } from '../spec/representations.js'
import { escapePointerSegment } from '../shared/json-pointer.js'
import { RepeatTally, type RepeatedProblem } from './repeated-problems.js'
import type { SchemaProblem } from './schema-problem.js'
import { sliceableMember, validateRepresentation } from './schema-registry.js'

/** Items judged between two turns of the event loop: ~10 ms of work for a feed item with several problems. */
export const SLICE_ITEMS = 1000

export interface TalliedProblems {
  readonly repeated: RepeatedProblem[]
  /** Set when the judging stopped before the end (the run was interrupted): the first `judged` items of the array at `pointer` were judged. */
  readonly stopped?: { readonly pointer: string; readonly judged: number; readonly of: number }
}

/**
 * The problems of a representation's body, collapsed as collapseRepeats tells them. A body with an
 * array of more than two slices of items, whose schema judges each item on its own, is judged a slice
 * at a time; any other body at once, as before.
 */
export async function tallyRepresentation(name: RepresentationName, body: unknown, options: { signal?: AbortSignal; sliceItems?: number } = {}): Promise<TalliedProblems> {
  const sliceItems = options.sliceItems ?? SLICE_ITEMS
  const member = sliceableMember(name, body, 2 * sliceItems + 1)
  const tally = new RepeatTally()
  if (member === undefined) {
    for (const problem of validateRepresentation(name, body)) tally.add(problem)
    return { repeated: tally.collapsed(body) }
  }
  const whole = body as Record<string, unknown>
  const items = whole[member] as readonly unknown[]
  const prefix = `/${escapePointerSegment(member)}/`
  for (let start = 0; start < items.length; start += sliceItems) {
    if (start > 0) {
      await nextTurn()
      if (options.signal?.aborted) return { repeated: tally.collapsed(body), stopped: { pointer: prefix.slice(0, -1), judged: start, of: items.length } }
    }
    // Same keys in the same order, so that every problem is found as in the whole body.
    const slice = { ...whole, [member]: items.slice(start, start + sliceItems) }
    for (const problem of validateRepresentation(name, slice)) {
      const index = itemIndex(problem.pointer, prefix)
      if (index === undefined) {
        if (start === 0) tally.add(problem) // outside the array: the same in every slice, counted once
      } else {
        tally.add(problem, { inArray: true, first: (found) => movedBy(found, prefix, index, start) })
      }
    }
  }
  return { repeated: tally.collapsed(body) }
}

/** The index of the item a pointer is in (`/items/3/uri` → 3), or undefined outside the array. */
function itemIndex(pointer: string, prefix: string): { text: string; value: number } | undefined {
  if (!pointer.startsWith(prefix)) return undefined
  const end = pointer.indexOf('/', prefix.length)
  const text = pointer.slice(prefix.length, end === -1 ? undefined : end)
  return /^(0|[1-9]\d*)$/.test(text) ? { text, value: Number(text) } : undefined
}

/** A problem of item `index` of a slice starting at `offset`, told at its place in the whole array (messages open with their path). */
function movedBy(problem: SchemaProblem, prefix: string, index: { text: string; value: number }, offset: number): SchemaProblem {
  if (offset === 0) return problem
  const local = prefix + index.text
  const global = prefix + String(index.value + offset)
  const opensWithIt = problem.message.startsWith(local) && !/^\d/.test(problem.message.slice(local.length))
  return {
    ...problem,
    pointer: global + problem.pointer.slice(local.length),
    message: opensWithIt ? global + problem.message.slice(local.length) : problem.message,
  }
}
