import type { SourceRef } from './diagnostic.js'

/** Token roles of the CLI (--token, --other-token, ...); see README "Token roles". */
export const TOKEN_ROLES = ['token', 'other-token', 'revoked-token', 'revoked-delete-token', 'limited-token'] as const
export type TokenRole = (typeof TOKEN_ROLES)[number]
/**
 * The main token one character off (execute/http/near-miss-token.ts): its last character changed, cut
 * off, or one more appended. A server must refuse each like a token it never issued (§5 rules 1–2).
 */
export const NEAR_MISS_TOKENS = ['near-miss-changed', 'near-miss-cut', 'near-miss-appended'] as const
export type NearMissToken = (typeof NEAR_MISS_TOKENS)[number]
/** `none` sends no Authorization header; `invalid` sends a bearer token no server can know. */
export type AuthChoice = TokenRole | 'none' | 'invalid' | NearMissToken

/** A string that may hold `${expression}` placeholders, rendered at run time. */
export type Template = string

export interface RequestTemplate {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD'
  /** A path under the base URL, or a captured URL; both may be templates. */
  readonly url: Template
  readonly query: Readonly<Record<string, Template>>
  readonly headers: Readonly<Record<string, Template>>
  /** Representation name whose media type goes in Accept. */
  readonly accept?: string
  /** Representation name whose media type goes in Content-Type. */
  readonly contentType?: string
  /** JSON body: any JSON value whose strings may be templates. */
  readonly json?: unknown
  /** Raw body text (for malformed-body checks). */
  readonly body?: Template
  readonly auth: AuthChoice
  /** Send over a raw socket so bytes after a HEAD/204/304 response are seen (see execute/http/wire-client.ts). */
  readonly wire: boolean
}

/** One comparison: evaluate `path` in the step's scope, then apply `matcher` to it. */
export interface Check {
  readonly path: string
  readonly matcher: string
  /** May hold templates; rendered just before the comparison. */
  readonly expected: unknown
  readonly rules: readonly string[]
  readonly at: SourceRef
  /** A warning never fails the scenario (a listed field that is absent, for example). */
  readonly severity: 'failure' | 'warning'
  /** Judged only when every one of these holds on the response (e.g. a reason only on a 403); else not judged. */
  readonly when?: readonly CheckCondition[]
}

export interface CheckCondition {
  readonly path: string
  readonly matcher: string
  readonly expected: unknown
}

/** One cell of the permission matrix (suites/permissions/): a route tried with one credential. */
export interface MatrixCell {
  /** `GET /user`, `PUT <an activity>`: the row. */
  readonly route: string
  /** The column. */
  readonly credential: AuthChoice
  /** Set when the spec leaves the outcome open: why. The cell is shown, sends nothing, is not judged. */
  readonly open?: string
}

/** A scenario generated from one row of the permission matrix: its route and every cell, in column order. */
export interface MatrixRow {
  readonly route: string
  readonly cells: readonly MatrixCell[]
}

export interface SchemaExpectation {
  readonly representation: string
  readonly rules: readonly string[]
  readonly at: SourceRef
}

export interface Expectations {
  readonly checks: readonly Check[]
  readonly schema?: SchemaExpectation
}

export interface FollowLinks {
  /** Expression giving the next URL, e.g. `body.previous`; the walk ends when it is absent. */
  readonly next: string
  readonly maxPages: number
  /** variable → expression, gathered over every page (arrays are concatenated). */
  readonly collect: Readonly<Record<string, string>>
}

export interface Eventually {
  readonly withinMs: number
  readonly everyMs: number
}

export interface SkipCondition {
  readonly checks: readonly Check[]
  readonly reason: string
}

export interface Step {
  readonly name: string
  readonly at: SourceRef
  /** Absent for a step that only waits or only checks captured variables. */
  readonly request?: RequestTemplate
  readonly waitMs?: number
  readonly follow?: FollowLinks
  readonly eventually?: Eventually
  /**
   * GET/HEAD only: a template giving a date; the request is resent until the server's `Date` is later
   * (execute/step/server-clock-wait.ts).
   */
  readonly untilServerDateAfter?: string
  readonly skipIf?: SkipCondition
  readonly expect: Expectations
  /** variable → expression, evaluated after the checks (also when they fail). */
  readonly capture: Readonly<Record<string, string>>
  /** Expression giving the URL of a resource this step created: deleted when the scenario ends. */
  readonly creates?: string
  /** Shown when the server answers 4xx to a body the suite wrote (it may reject our values). */
  readonly onRejected?: string
  /**
   * The matrix cell this step belongs to. The steps of a cell run in order and stop at the first
   * that does not pass; the next cell still runs. A cell whose credential was not given is skipped.
   */
  readonly cell?: MatrixCell
  /**
   * A group of steps sent all at once (`parallel:`); the group step itself sends nothing. Each
   * branch runs `repeat` times (once without it) and sees only what was captured before the group.
   */
  readonly parallel?: readonly ParallelBranch[]
}

/** One step of a `parallel:` group. With `repeat`, its captures become lists, one value per copy in `index` order. */
export interface ParallelBranch {
  readonly step: Step
  readonly repeat?: number
}

export interface Scenario {
  readonly id: string
  readonly title: string
  readonly file: string
  readonly at: SourceRef
  readonly rules: readonly string[]
  readonly tags: readonly string[]
  /** Token roles the scenario needs; derived from its steps. */
  readonly tokens: readonly TokenRole[]
  /** True when any step changes data (anything but GET/HEAD); --read-only drops these. */
  readonly writes: boolean
  /** Runs with nothing else in flight: feed-wide invariants and conditional feed reads need a quiet account. */
  readonly exclusive: boolean
  readonly steps: readonly Step[]
  readonly cleanup: readonly Step[]
  /** Set on the scenarios the permission matrix generates (src/spec/permission-matrix.ts). */
  readonly matrixRow?: MatrixRow
}

export interface Rule {
  readonly id: string
  readonly section: string
  readonly quote: string
  readonly appliesTo: 'server' | 'client'
  readonly irregularity: boolean
  /** An id that no longer applies; kept so it is never reused for another meaning. */
  readonly retired?: boolean
  readonly at: SourceRef
}
