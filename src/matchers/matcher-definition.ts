/** One matcher of docs/scenario-format.md § Checks (Ajv's keyword shape). */
export interface MatcherDefinition {
  readonly name: string
  /** Runs at load time on the YAML value; a message makes it a load error with a line. */
  readonly checkExpected: (expected: unknown) => string | undefined
  readonly test: (actual: unknown, expected: unknown) => boolean
  /** "greater than 5": completes the sentence "expected a value ...". */
  readonly describe: (expected: unknown) => string
  /** What the evidence shows of the value found, when not the value itself (a length check: "25 items"). */
  readonly describeActual?: (actual: unknown) => string | undefined
}

export const isTemplate = (value: unknown): boolean => typeof value === 'string' && value.includes('${')

/** For matchers that take `true` only (`unique: true`, `httpDate: true`). */
export function expectsTrue(expected: unknown): string | undefined {
  return expected === true || isTemplate(expected) ? undefined : 'expects true'
}

export function expectsNumber(expected: unknown): string | undefined {
  return typeof expected === 'number' || isTemplate(expected) ? undefined : 'expects a number'
}

export function expectsString(expected: unknown): string | undefined {
  return typeof expected === 'string' ? undefined : 'expects a text'
}
