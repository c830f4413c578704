/**
 * Runs `work` on every item, at most `concurrency` at a time, starting them in the order given: the
 * runner's concurrent scenarios and the self-test's targets. Rejects with the first error.
 */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker))
}
