import type { Rule } from '../model/scenario.js'

/*
 * Blame exactly, judged over one-fault servers: a server whose only fault breaks
 * rule R must fail R, and may fail at most BLAME_BUDGET other rules, each tied to R by a section of
 * the spec. Pure: the self-test verdict and the in-`npm test` subset read this one definition.
 */

/** How many rules besides its own a one-fault server may be blamed on. */
export const BLAME_BUDGET = 2

export interface Blame {
  /** A failed check names the very rule the fault breaks. */
  readonly ownRuleFailed: boolean
  /** The other failed rules, sorted. */
  readonly others: readonly string[]
  /** Those of `others` that share no section with the fault's rule. */
  readonly untied: readonly string[]
  /** Own rule failed and nothing else did. */
  readonly exact: boolean
  /** Own rule failed, at most BLAME_BUDGET others, every one tied to it. */
  readonly withinBudget: boolean
}

/** `§4 rule 2; §2.2` → ['§4 rule 2', '§2.2']. */
export function sectionsOf(rule: Pick<Rule, 'section'> | undefined): string[] {
  return (rule?.section ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
}

/** `§7` contains `§7 rule 3` (and itself); `§7` does not contain `§7.1` nor `§4 rule 7`. */
function sectionContains(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(`${outer} `)
}

/** Two rules are tied when one names a section that is, or contains, a section the other names. */
export function isTied(a: Pick<Rule, 'section'> | undefined, b: Pick<Rule, 'section'> | undefined): boolean {
  const ofB = sectionsOf(b)
  return sectionsOf(a).some((x) => ofB.some((y) => sectionContains(x, y) || sectionContains(y, x)))
}

/** Judges the rules a one-fault server failed against the rule its fault breaks. */
export function judgeBlame(
  ownRule: string,
  failedRules: readonly string[],
  catalogue: ReadonlyMap<string, Pick<Rule, 'section'>>,
): Blame {
  const ownRuleFailed = failedRules.includes(ownRule)
  const others = [...new Set(failedRules.filter((rule) => rule !== ownRule))].sort()
  const untied = others.filter((rule) => !isTied(catalogue.get(rule), catalogue.get(ownRule)))
  return {
    ownRuleFailed,
    others,
    untied,
    exact: ownRuleFailed && others.length === 0,
    withinBudget: ownRuleFailed && others.length <= BLAME_BUDGET && untied.length === 0,
  }
}
