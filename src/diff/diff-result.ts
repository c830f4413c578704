import type { RuleStatus } from '../model/reported-result.js'

/*
 * What `fitconform diff` hands to its reporters: pure, JSON-serializable data. `new` is the server
 * under test (--base-url), `reference` the one clients already depend on (--reference-url, or a
 * recording of it).
 */

export const DIFF_SCHEMA_VERSION = 1

export type Side = 'new' | 'reference'

/**
 * - `conformance`: a rule's check fails on one side and passes on the other;
 * - `open-choice`: both sides conform, and the spec leaves the point open (the sentence is quoted);
 * - `extension`: a header or body field the spec does not name, on one side only.
 */
export type DifferenceClass = 'conformance' | 'open-choice' | 'extension'

export interface Difference {
  readonly class: DifferenceClass
  /** A rule id (conformance), an open-choice kind, or `extra-header` / `extra-field` (extension). */
  readonly kind: string
  /** Where it is: `status`, `headers.etag`, `body.items[].source`, `body.items (order)`. */
  readonly path: string
  /** The value on each side after volatile values were replaced by their roles; absent: not there. */
  readonly new?: unknown
  readonly reference?: unknown
  /** §-reference of the rule or open choice; empty for an extension. */
  readonly section: string
  /** The spec's own words behind the classification. */
  readonly quote?: string
  /** One sentence for a reader, e.g. the failed check's message. */
  readonly note?: string
}

/** One step answered on both sides, and how the answers differ. */
export interface StepDiff {
  readonly scenario: string
  /** 1-based position in the scenario (or in the recording). */
  readonly step: number
  readonly name: string
  /** The method and the path with query, ids and the base URL by role (`GET <feed>/<activity created by SCENARIO step 1>`). */
  readonly request: string
  readonly differences: readonly Difference[]
}

/** A rule whose verdict is not the same on both sides, as each run reports it. */
export interface RuleDifference {
  readonly rule: string
  readonly section: string
  readonly quote: string
  readonly new: RuleStatus
  readonly reference: RuleStatus
}

/** One open choice the two servers made differently, listed once however many steps show it. */
export interface OpenChoiceSummary {
  readonly kind: string
  readonly section: string
  readonly quote: string
  /** What the choice is about, e.g. `order of the feed's items`. */
  readonly about: string
  readonly steps: number
  /** The first step that shows it. */
  readonly example: {
    readonly scenario: string
    readonly step: number
    readonly path: string
    readonly new?: unknown
    readonly reference?: unknown
  }
}

/** A value that differs between servers by nature, how it is matched, and what it looked like. */
export interface VolatileValue {
  readonly name: string
  readonly where: 'header' | 'body' | 'url'
  /** How the two sides' values are compared instead of by equality. */
  readonly matchedBy: string
}

/** Something of the reference side that was not sent to the new server, and why. */
export interface SkippedExchange {
  readonly at: string
  readonly request: string
  readonly reason: string
}

export interface DiffSideSummary {
  readonly label: string
  readonly passed: number
  readonly failed: number
  readonly skipped: number
}

export interface DiffResult {
  readonly schemaVersion: number
  readonly tool: { readonly name: 'fitconform'; readonly version: string }
  readonly startedAt: string
  readonly durationMs: number
  /** `servers` (two live runs) or `recording` (a recording replayed against the new server). */
  readonly mode: 'servers' | 'recording'
  readonly sides: { readonly new: DiffSideSummary; readonly reference: DiffSideSummary }
  readonly rules: readonly RuleDifference[]
  readonly steps: readonly StepDiff[]
  readonly openChoices: readonly OpenChoiceSummary[]
  readonly volatile: readonly VolatileValue[]
  readonly skipped: readonly SkippedExchange[]
  readonly summary: {
    readonly conformance: number
    readonly openChoice: number
    readonly extension: number
    readonly stepsWithDifferences: number
  }
}
