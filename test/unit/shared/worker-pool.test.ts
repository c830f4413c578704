import { describe, expect, it } from 'vitest'
import { forEachInSlots } from '../../../src/shared/worker-pool.js'

/** Work items that finish only when the test says so: how many run at once is then plain to see. */
function gatedWork() {
  const running = new Set<number>()
  const started: number[] = []
  let peak = 0
  const gates = new Map<number, () => void>()
  const work = (item: number): Promise<void> => {
    started.push(item)
    running.add(item)
    peak = Math.max(peak, running.size)
    return new Promise((resolve) => gates.set(item, () => (running.delete(item), resolve())))
  }
  const release = async (item: number): Promise<void> => {
    gates.get(item)!()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { work, release, started, peak: () => peak }
}

describe('forEachInSlots', () => {
  it('starts items in order and never runs more than the limit at once', async () => {
    const { work, release, started, peak } = gatedWork()
    const done = forEachInSlots([1, 2, 3, 4, 5], 2, work)
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toEqual([1, 2])
    await release(2)
    expect(started).toEqual([1, 2, 3])
    for (const item of [1, 3, 4, 5]) await release(item)
    await done
    expect(started).toEqual([1, 2, 3, 4, 5])
    expect(peak()).toBe(2)
  })

  it('does nothing for no items, and rejects with the first error', async () => {
    await expect(forEachInSlots([], 4, () => Promise.reject(new Error('never called')))).resolves.toBeUndefined()
    await expect(
      forEachInSlots([1, 2], 1, async (item) => {
        if (item === 2) throw new Error('item 2 broke')
      }),
    ).rejects.toThrow('item 2 broke')
  })
})
