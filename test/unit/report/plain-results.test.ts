import { describe, expect, it } from 'vitest'
import { createFinalizer } from '../../../src/execute/finalize/finalize-run.js'
import { runResult, scenario, step } from '../../fixtures/report/build-result.js'

/** Every own property of a value, at any depth, is a data property: no getter stands between a reporter and a value. */
function accessorPaths(value: unknown, at = '$'): string[] {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(Object.getOwnPropertyDescriptors(value)).flatMap(([name, descriptor]) =>
    descriptor.get || descriptor.set ? [`${at}.${name}`] : accessorPaths(descriptor.value, `${at}.${name}`),
  )
}

describe('reported results are plain data (issue 29 point 5)', () => {
  it('gives reporters a masked progress event without getters', () => {
    const raw = runResult([
      scenario({
        steps: [
          step({
            response: {
              status: 200,
              headers: {},
              body: { name: 'Ada Lovelace', location: 'London, UK' },
              bodyBytes: 60,
            },
          }),
        ],
      }),
    ]).scenarios[0]!
    const event = createFinalizer({ knownFailures: [], showPersonalData: false, rules: [] }).scenario(raw)
    expect(accessorPaths(event)).toEqual([])
    expect(event.steps[0]?.response?.body).toMatchObject({ name: 'A… [masked]', location: 'L… [masked]' })
  })
})
