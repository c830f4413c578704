import type { NotTested } from '../../model/result.js'
import { plural } from './run-summary.js'

export const NOT_TESTED_HEADING = 'NOT TESTED: what the tokens not given leave untested'

/**
 * One line per token flag not given: what it skipped and the rules nothing else in the run judged.
 * Every output shows these lines at its top and its bottom, so an untested rule never reads as passed.
 */
export function notTestedLines(notTested: readonly NotTested[]): string[] {
  return notTested.map((entry) => {
    const skipped = [
      entry.scenarios > 0 ? plural(entry.scenarios, 'scenario') : '',
      entry.cells > 0 ? plural(entry.cells, 'permission-matrix cell') : '',
    ]
      .filter(Boolean)
      .join(' and ')
    const rules =
      entry.rules.length > 0
        ? `rules left untested: ${entry.rules.join(', ')}`
        : 'no rule left untested (others judge them)'
    return `${entry.flag} (or ${entry.env}) not given: ${skipped} skipped; ${rules}`
  })
}
