import type { Difference, DiffResult, Side } from '../diff-result.js'

/*
 * The views every diff report shows: conformance differences by rule (grouped by spec section by the
 * caller), extensions once per place. Open choices are listed once per kind in the result itself.
 */

export interface StepExample {
  readonly scenario: string
  readonly step: number
  readonly request: string
  readonly difference: Difference
}

export interface ConformanceGroup {
  readonly rule: string
  readonly section: string
  readonly quote: string
  /** The rule's verdict on each side, when the runs judged it differently. */
  readonly verdicts?: { readonly new: string; readonly reference: string }
  readonly examples: readonly StepExample[]
}

export interface ExtensionGroup {
  /** `headers.x-request-id`, `body.items[].x_shard`. */
  readonly place: string
  readonly side: Side
  readonly steps: number
  readonly example: unknown
}

/** One group per rule that holds on one side only, in spec order of sections. */
export function conformanceGroups(result: DiffResult): ConformanceGroup[] {
  const groups = new Map<
    string,
    {
      rule: string
      section: string
      quote: string
      verdicts?: { new: string; reference: string }
      examples: StepExample[]
    }
  >()
  const groupOf = (
    rule: string,
    section: string,
    quote: string,
  ): { examples: StepExample[]; verdicts?: { new: string; reference: string } } => {
    let group = groups.get(rule)
    if (!group) groups.set(rule, (group = { rule, section, quote, examples: [] }))
    return group
  }
  for (const rule of result.rules)
    Object.assign(groupOf(rule.rule, rule.section, rule.quote), {
      verdicts: { new: rule.new, reference: rule.reference },
    })
  for (const step of result.steps) {
    for (const difference of step.differences) {
      if (difference.class !== 'conformance') continue
      groupOf(difference.kind, difference.section, difference.quote ?? '').examples.push({
        scenario: step.scenario,
        step: step.step,
        request: step.request,
        difference,
      })
    }
  }
  return [...groups.values()].sort((a, b) => compareSections(a.section, b.section) || a.rule.localeCompare(b.rule))
}

/** Each header or field only one side sends, once, with how many steps show it. */
export function extensionGroups(result: DiffResult): ExtensionGroup[] {
  const groups = new Map<string, ExtensionGroup>()
  for (const step of result.steps) {
    const seen = new Set<string>()
    for (const d of step.differences) {
      if (d.class !== 'extension') continue
      const side: Side = d.new !== undefined ? 'new' : 'reference'
      const place = d.path.replace(/\[\d+\]/g, '[]')
      const key = `${side} ${place}`
      if (seen.has(key)) continue
      seen.add(key)
      const known = groups.get(key)
      groups.set(key, known ? { ...known, steps: known.steps + 1 } : { place, side, steps: 1, example: d[side] })
    }
  }
  return [...groups.values()].sort((a, b) => a.place.localeCompare(b.place))
}

/** `§2.2` before `§4 rule 3` before `§7 rule 6`; a difference without a section last. */
export function compareSections(a: string, b: string): number {
  const key = (section: string): number[] =>
    section === '' ? [99] : [...section.matchAll(/\d+/g)].map((m) => Number(m[0]))
  const ka = key(a)
  const kb = key(b)
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const d = (ka[i] ?? -1) - (kb[i] ?? -1)
    if (d !== 0) return d
  }
  return 0
}

export function sideCountsLine(result: DiffResult): string {
  const { conformance, openChoice, extension } = result.summary
  return `${conformance} conformance difference${conformance === 1 ? '' : 's'}, ${openChoice} open choice${openChoice === 1 ? '' : 's'}, ${extension} extension${extension === 1 ? '' : 's'}`
}
