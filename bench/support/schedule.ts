/**
 * How the runner schedules scenarios that are not exclusive: in plan order, each taken by the first
 * worker to free up (src/execute/run-plan.ts).
 */

/** Wall time of `durations` run in order by `workers` workers, each taking the next as it frees up. */
export function greedySchedule(durations: readonly number[], workers: number): number {
  const busyUntil = Array.from({ length: Math.max(1, Math.min(workers, durations.length)) }, () => 0)
  for (const duration of durations) {
    const free = busyUntil.indexOf(Math.min(...busyUntil))
    busyUntil[free]! += duration
  }
  return Math.max(...busyUntil)
}
