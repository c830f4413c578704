/*
 * A run keeps every scenario's result until its reporters write their files (results.json needs them
 * all, and personal-data masking may change any of them at the end: src/execute/finalize/personal-data.ts).
 * Those results repeat the same values scenario after scenario: the response's content type and
 * links, the request's URL and headers, the curl line, the check messages, whole response bodies.
 * Interning (src/shared/interning.ts) keeps each repeated value once.
 *
 * An ended result is interned in place. Results are read-only data (src/model/reporter.ts), so nothing
 * can tell an equal copy from the one it replaces; the result itself keeps its identity (the masking's
 * per-scenario pass is looked up by it). What a result shares with its loaded scenario (its place,
 * rules, tags) is already held once, and frozen, by the load (src/load/load-suites.ts): left as it is.
 */
import { createInterner, type Interner } from '../shared/interning.js'

export type ResultInterner = Interner

export function createResultInterner(): ResultInterner {
  return createInterner()
}
