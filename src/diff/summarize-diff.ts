import { packageVersion } from '../shared/package-root.js'
import {
  DIFF_SCHEMA_VERSION,
  type DiffResult,
  type DiffSideSummary,
  type OpenChoiceSummary,
  type RuleDifference,
  type SkippedExchange,
  type StepDiff,
} from './diff-result.js'
import { IDENTIFIER_FORMAT, OPEN_CHOICES, UNCLASSIFIED } from '../spec/open-choices.js'
import { activityIdOf, idShapeOf, volatileDeclaration, type CreatedActivity } from './volatile-values.js'

export interface DiffParts {
  readonly mode: DiffResult['mode']
  readonly startedAt: Date
  readonly sides: DiffResult['sides']
  readonly rules: readonly RuleDifference[]
  readonly steps: readonly StepDiff[]
  readonly created: { readonly new: readonly CreatedActivity[]; readonly reference: readonly CreatedActivity[] }
  readonly skipped?: readonly SkippedExchange[]
}

/** The finished diff: open choices listed once per kind, counts per class. */
export function summarizeDiff(parts: DiffParts): DiffResult {
  const openChoices = [...identifierFormat(parts.created), ...openChoicesOf(parts.steps)]
  const kinds = (cls: string): Set<string> =>
    new Set(
      parts.steps.flatMap((step) =>
        step.differences
          .filter((d) => d.class === cls)
          .map((d) => (cls === 'extension' ? d.path.replace(/\[\d+\]/g, '[]') : d.kind)),
      ),
    )
  const failingRules = parts.rules
    .filter(
      (rule) =>
        rule.new === 'failed' || rule.reference === 'failed' || rule.new === 'error' || rule.reference === 'error',
    )
    .map((rule) => rule.rule)
  return {
    schemaVersion: DIFF_SCHEMA_VERSION,
    tool: { name: 'fitconform', version: packageVersion() },
    startedAt: parts.startedAt.toISOString(),
    durationMs: Date.now() - parts.startedAt.getTime(),
    mode: parts.mode,
    sides: parts.sides,
    rules: parts.rules,
    steps: parts.steps,
    openChoices,
    volatile: volatileDeclaration(),
    skipped: parts.skipped ?? [],
    summary: {
      conformance: new Set([...kinds('conformance'), ...failingRules]).size,
      openChoice: openChoices.length,
      extension: kinds('extension').size,
      stepsWithDifferences: parts.steps.length,
    },
  }
}

function openChoicesOf(steps: readonly StepDiff[]): OpenChoiceSummary[] {
  const byKind = new Map<string, OpenChoiceSummary>()
  for (const step of steps) {
    for (const kind of new Set(step.differences.filter((d) => d.class === 'open-choice').map((d) => d.kind))) {
      const known = byKind.get(kind)
      if (known) byKind.set(kind, { ...known, steps: known.steps + 1 })
    }
    for (const d of step.differences) {
      if (d.class !== 'open-choice' || byKind.has(d.kind)) continue
      const choice = OPEN_CHOICES.find((c) => c.kind === d.kind) ?? { ...UNCLASSIFIED, quote: '' }
      byKind.set(d.kind, {
        kind: d.kind,
        section: choice.section,
        quote: choice.quote,
        about: choice.about,
        steps: 1,
        example: { scenario: step.scenario, step: step.step, path: d.path, ...pick(d) },
      })
    }
  }
  return [...byKind.values()]
}

/** Compared once, on the activities the run created: each server's ids keep one form. */
function identifierFormat(created: DiffParts['created']): OpenChoiceSummary[] {
  const shapes = (list: readonly CreatedActivity[]): string =>
    [...new Set(list.map((a) => idShapeOf(activityIdOf(a.url) ?? '')))].sort().join(', ')
  const shapeNew = shapes(created.new)
  const shapeReference = shapes(created.reference)
  if (shapeNew === '' || shapeReference === '' || shapeNew === shapeReference) return []
  const first = created.new[0]!
  return [
    {
      ...IDENTIFIER_FORMAT,
      steps: 0,
      example: { scenario: first.label, step: 0, path: 'headers.location', new: shapeNew, reference: shapeReference },
    },
  ]
}

function pick(d: { new?: unknown; reference?: unknown }): { new?: unknown; reference?: unknown } {
  return { new: d.new, reference: d.reference }
}

export function sideSummary(
  label: string,
  summary: { passed: number; failed: number; skipped: number },
): DiffSideSummary {
  return { label, passed: summary.passed, failed: summary.failed, skipped: summary.skipped }
}
