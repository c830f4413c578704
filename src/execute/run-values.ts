import { randomBytes } from 'node:crypto'
import type { RunContext } from './run-context.js'

/** The run's id, its marker for `notes`, and the far-past year everything it creates is dated in. */
export function createRunValues(startedAt: Date): RunContext['run'] {
  const id = randomBytes(4).toString('hex')
  // 1980–1999: far enough back that no real account's recent history overlaps, and every server's date parser copes.
  const farYear = 1980 + (parseInt(id.slice(0, 4), 16) % 20)
  return { id, marker: `fitconform-run-${id}`, farYear, now: startedAt.getTime() }
}
