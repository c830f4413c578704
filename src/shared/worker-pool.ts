// The one concurrency pool: at most N items at work at once (the runner's concurrent scenarios, the
// self-test's targets). An item waiting on something that is not work (the runner's clock waits and
// writes held at its write gate, execute/write-gate.ts) can `park`: it gives its slot up for the wait,
// so that the next item can start, and takes one back, before any item not started yet, when the
// wait is over (several scenarios of the suite wait for the server's next second: without parking,
// some waited for a slot and then for a second more). With one slot nothing runs
// beside anything: a wait keeps its slot, and `--concurrency 1` stays one scenario at a time.

/** Runs `wait` with the scenario's slot given up; resolves once the slot is back. */
export type Park = <T>(wait: () => Promise<T>) => Promise<T>

export interface Slots {
  /** A slot for something new: granted after every scenario back from a wait. */
  take(): Promise<void>
  /** A slot ahead of everything new (the exclusive scenarios' lane). */
  takeFirst(): Promise<void>
  release(): void
  readonly park: Park
}

export function createSlots(size: number): Slots {
  let free = Math.max(1, size)
  // Whoever waits for a slot: scenarios back from a wait first, then scenarios not started yet.
  const resuming: (() => void)[] = []
  const starting: (() => void)[] = []
  const acquire = (queue: (() => void)[]): Promise<void> => {
    if (free > 0) {
      free--
      return Promise.resolve()
    }
    return new Promise((resolve) => queue.push(resolve))
  }
  // A slot given back goes straight to the next in line, so `free` is above 0 only while nobody waits.
  const release = (): void => {
    const next = resuming.shift() ?? starting.shift()
    if (next) next()
    else free++
  }
  const park: Park =
    size > 1
      ? async (wait) => {
          release()
          try {
            return await wait()
          } finally {
            await acquire(resuming)
          }
        }
      : (wait) => wait()
  return { take: () => acquire(starting), takeFirst: () => acquire(resuming), release, park }
}

/**
 * Runs `work` on every item, starting them in the order given, at most `slots` at work at once.
 * Rejects with the first error, once every item started has ended.
 */
export async function forEachInSlots<T>(
  items: readonly T[],
  slots: Slots | number,
  work: (item: T, park: Park) => Promise<void>,
): Promise<void> {
  const pool = typeof slots === 'number' ? createSlots(slots) : slots
  const running: Promise<void>[] = []
  for (const item of items) {
    await pool.take()
    running.push(work(item, pool.park).finally(pool.release))
  }
  const ended = await Promise.allSettled(running)
  const failed = ended.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
  if (failed) throw failed.reason
}
