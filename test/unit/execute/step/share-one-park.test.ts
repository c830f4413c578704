// A parallel group's requests held at the write gate at the same time park the scenario's one slot
// once: parking each would give the slot away several times and could end with the group's copies
// holding every slot while one of them waits for a slot to resume.
import { expect, it } from 'vitest'
import { createSlots } from '../../../../src/shared/worker-pool.js'
import { shareOnePark } from '../../../../src/execute/step/run-step-group.js'

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

it('gives the slot up once for three waits in flight, and takes it back once when the last is over', async () => {
  const slots = createSlots(2)
  await slots.take() // the scenario running the group
  await slots.take() // another scenario
  const park = shareOnePark(slots.park)
  const held = gate()
  const waits = [1, 2, 3].map((n) =>
    park(async () => {
      await held.opened
      return n
    }),
  )
  // One slot is free while the group waits: one new scenario starts, a second does not.
  let started = 0
  void slots.take().then(() => started++)
  void slots.take().then(() => started++)
  await new Promise((resolve) => setImmediate(resolve))
  expect(started).toBe(1)
  held.open()
  await new Promise((resolve) => setImmediate(resolve))
  // The group resumes once a slot comes back (the other scenario ends), and each wait keeps its own value.
  slots.release()
  expect(await Promise.all(waits)).toEqual([1, 2, 3])
  expect(started).toBe(1)
})
