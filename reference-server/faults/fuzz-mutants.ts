// Fuzz-only mutants: faults that trigger on some inputs only, which the static suite's fixed values
// never reach (`fitconform selftest` does not run them, so they stay outside its mutation score).
// `fitconform selftest --fuzz` proves that a fixed-seed `fitconform fuzz` finds each of them.
// Served like any mutant: `fitconform serve --mutant long-notes-cut`.
import type { PathPoint } from '../store/model.js'
import type { TimeScope } from '../handlers/feed-query.js'

export interface FuzzMutantDefinition {
  name: string
  /** The id in suites/rules.yaml that this mutant breaks. */
  rule: string
  description: string
}

export const fuzzMutantCatalogue = [
  {
    name: 'path-decimals-rounded',
    rule: 'CREATE-RECORDS',
    description:
      'Create stores path numbers (latitude, longitude, altitude) with more than 6 decimals rounded to 6 (§4 rule 5).',
  },
  {
    name: 'long-notes-cut',
    rule: 'CREATE-RECORDS',
    description: 'Create stores notes longer than 1,000 characters cut to 1,000 (§4 rule 5).',
  },
  {
    name: 'notes-line-breaks-dropped',
    rule: 'CREATE-RECORDS',
    description: 'Create stores notes with their line breaks removed (§4 rule 5).',
  },
  {
    name: 'same-day-modified-scope-empty',
    rule: 'SCOPE-MODIFIED-NO-LATER-THAN',
    description:
      'A feed scoped by modifiedNoEarlierThan and modifiedNoLaterThan on the same day lists nothing (§4 rule 1).',
  },
] as const satisfies readonly FuzzMutantDefinition[]

export type FuzzMutantName = (typeof fuzzMutantCatalogue)[number]['name']

interface FaultSwitch {
  is(name: FuzzMutantName): boolean
}

/** What create stores of the notes it was sent. */
export function storedNotes(notes: string | undefined, faults: FaultSwitch): string | undefined {
  if (notes === undefined) return undefined
  if (faults.is('long-notes-cut') && notes.length > 1_000) return notes.slice(0, 1_000)
  if (faults.is('notes-line-breaks-dropped')) return notes.replace(/\r?\n|\r/g, '')
  return notes
}

/** What create stores of the route it was sent. */
export function storedPath(path: PathPoint[], faults: FaultSwitch): PathPoint[] {
  if (!faults.is('path-decimals-rounded')) return path
  const round = (value: number): number => (hasMoreThanSixDecimals(value) ? Math.round(value * 1e6) / 1e6 : value)
  return path.map((point) => ({
    ...point,
    latitude: round(point.latitude),
    longitude: round(point.longitude),
    altitude: round(point.altitude),
  }))
}

function hasMoreThanSixDecimals(value: number): boolean {
  const text = String(value)
  if (text.includes('e')) return false
  return (text.split('.')[1]?.length ?? 0) > 6
}

/** True when a mutant makes this scope list nothing at all. */
export function scopeListsNothing(scope: TimeScope, faults: FaultSwitch): boolean {
  return (
    faults.is('same-day-modified-scope-empty') &&
    scope.modifiedFrom !== undefined &&
    scope.modifiedFrom === scope.modifiedTo
  )
}
