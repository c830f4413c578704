import { mutants, type MutantDefinition, type ServerMode } from '../../reference-server/index.js'

/**
 * What the self-test runs the suite against, and what must come out:
 * - the reference server and the three conforming variants must pass (warnings allowed);
 * - the quirky variant under --strict must fail, and only for the §2.2 irregularity rules;
 * - every mutant (one broken rule each) must make at least one scenario fail.
 */
export type SelftestExpectation = 'pass' | 'fail-only-irregularities' | 'fail'

export interface SelftestTarget {
  readonly name: string
  readonly mode: ServerMode
  readonly strict: boolean
  readonly mutant?: MutantDefinition
  readonly expectation: SelftestExpectation
}

const CONFORMING_TARGETS: readonly SelftestTarget[] = [
  { name: 'reference', mode: 'reference', strict: false, expectation: 'pass' },
  { name: 'quirky', mode: 'quirky', strict: false, expectation: 'pass' },
  { name: 'other-choices', mode: 'other-choices', strict: false, expectation: 'pass' },
  { name: 'realistic', mode: 'realistic', strict: false, expectation: 'pass' },
  { name: 'quirky --strict', mode: 'quirky', strict: true, expectation: 'fail-only-irregularities' },
]

export function selftestTargets(only?: readonly string[]): SelftestTarget[] {
  const mutantTargets = mutants.map((mutant): SelftestTarget => ({
    name: mutant.name,
    mode: mutant.mode ?? 'reference',
    strict: false,
    mutant,
    expectation: 'fail',
  }))
  const all = [...CONFORMING_TARGETS, ...mutantTargets]
  return only && only.length > 0 ? all.filter((target) => only.includes(target.name)) : all
}
