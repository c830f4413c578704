// forEachInSlots (src/shared/worker-pool.ts): at most N items at work, a parked item's slot lent
// to the next, taken back before anything new starts. Waits are promises the test resolves itself,
// so what overlaps is decided by the test, not by timers.
import { describe, expect, it } from 'vitest'
import { forEachInSlots, type Park } from '../../../src/shared/worker-pool.js'

interface Gate {
  readonly opened: Promise<void>
  open(): void
}
function gate(): Gate {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('forEachInSlots', () => {
  it('starts the next item while one waits parked, and never has more than N at work', async () => {
    const events: string[] = []
    let atWork = 0
    let most = 0
    const clock = gate()
    const done = forEachInSlots(['waits', 'second', 'third'], 2, async (item, park: Park) => {
      atWork++
      most = Math.max(most, atWork)
      events.push(`start ${item}`)
      if (item === 'waits') {
        atWork--
        await park(() => clock.opened)
        atWork++
        events.push('waits resumed')
      }
      await turn()
      atWork--
      events.push(`end ${item}`)
    })
    await turn()
    await turn()
    // With two slots and the first item parked, both others have started before the wait ends.
    expect(events.filter((event) => event.startsWith('start'))).toEqual(['start waits', 'start second', 'start third'])
    clock.open()
    await done
    expect(events).toContain('waits resumed')
    expect(most).toBeLessThanOrEqual(2)
  })

  it('gives a slot back to a parked item before an item not started yet', async () => {
    const events: string[] = []
    const clock = gate()
    const held = { busy: gate(), taker: gate() }
    const done = forEachInSlots(['waits', 'busy', 'taker', 'not-started'], 2, async (item, park) => {
      events.push(`start ${item}`)
      if (item === 'waits') {
        await park(() => clock.opened)
        events.push('waits resumed')
      }
      if (item === 'busy' || item === 'taker') await held[item].opened
      events.push(`end ${item}`)
    })
    await turn()
    // 'waits' parked and lent its slot to 'taker'; both slots are busy, 'not-started' is in line.
    expect(events).toEqual(['start waits', 'start busy', 'start taker'])
    clock.open()
    await turn()
    held.taker.open()
    await turn()
    await turn()
    // The slot 'taker' gave back went to 'waits', which was back in line, not to 'not-started'.
    expect(events.slice(3)).toEqual(['end taker', 'waits resumed', 'end waits', 'start not-started', 'end not-started'])
    held.busy.open()
    await done
  })

  it('with one slot, a wait keeps its slot: one item at a time, in order', async () => {
    const events: string[] = []
    await forEachInSlots(['waits', 'next'], 1, async (item, park) => {
      events.push(`start ${item}`)
      if (item === 'waits') await park(() => turn())
      events.push(`end ${item}`)
    })
    expect(events).toEqual(['start waits', 'end waits', 'start next', 'end next'])
  })

  it('rejects with the first error, after the items started have ended', async () => {
    const ended: string[] = []
    await expect(
      forEachInSlots(['fails', 'fine'], 2, async (item) => {
        await turn()
        if (item === 'fails') throw new Error('scenario broke')
        ended.push(item)
      }),
    ).rejects.toThrow('scenario broke')
    expect(ended).toEqual(['fine'])
  })
})
