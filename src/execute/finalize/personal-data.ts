import type { Diagnostic } from '../../model/diagnostic.js'
import type {
  AssertionResult,
  RecordedRequest,
  RecordedResponse,
  RunResult,
  ScenarioResult,
  StepResult,
} from '../../model/result.js'
import { PATH_POINT_PERSONAL_FIELDS, PROFILE_PERSONAL_FIELDS } from '../../model/personal-data-fields.js'
import { parseJsonPath } from '../../shared/json-path.js'
import { isRecord } from '../../shared/is-record.js'

/*
 * Personal data in report files, from the field list the proxy's `--redact-personal` uses
 * (src/model/personal-data-fields.ts): profile texts (name, location, birthday, profile and picture
 * URLs) keep their first character, GPS coordinates are rounded to 0.1° (about 11 km), altitudes to
 * 100 m, and a `path` keeps its first points. Values are masked where they sit in bodies and in both
 * sides of a check (expected and actual alike, so equal values stay equal), then by value everywhere
 * else (messages, curl lines, expected values captured from a response), the way the runner redacts
 * tokens. `--show-personal-data` skips all this.
 */

const TEXT_KEYS: ReadonlySet<string> = new Set(PROFILE_PERSONAL_FIELDS)
const NUMBER_KEYS: ReadonlySet<string> = new Set(PATH_POINT_PERSONAL_FIELDS)
const PATH_POINTS_KEPT = 3
/** Shorter values are too common to replace by value in free text. */
const MIN_REPLACED_LENGTH = 3
/** A remembered original that is a number's text (a coordinate): replaced where a whole number token equals it. */
const WHOLE_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/
const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g

interface Replacements {
  readonly texts: readonly (readonly [string, string])[]
  readonly numbers: ReadonlyMap<string, string>
}
/** Matchers whose expected value is a value of the target (or, for oneOf, a list of them). */
const VALUE_MATCHERS = new Set(['equals', 'notEquals', 'like', 'contains', 'notContains', 'gt', 'gte', 'lt', 'lte'])

export const CURL_MASKED_NOTE = '# personal data masked: run with --show-personal-data for an exact line'
export const DIFFERENCE_MASKED_NOTE =
  '(the values differ only in masked personal data: run with --show-personal-data to see how)'

export function maskText(text: string): string {
  return text.length <= 1 ? '[masked]' : `${text.slice(0, 1)}… [masked]`
}

export function maskCoordinate(value: number): number {
  return Math.round(value * 10) / 10
}

export function maskAltitude(value: number): number {
  return Math.round(value / 100) * 100
}

/** A copy of the result with profile texts and GPS positions masked; the input is not changed. */
export function maskPersonalData<T extends RunResult>(result: T): T {
  return createRunMasking().run(result)
}

/** One scenario alone, for the events reporters receive while the run goes on. */
export function maskScenarioPersonalData<S extends ScenarioResult>(scenario: S): S {
  const masker = new Masker()
  return masker.scenarioText(masker.scenario(scenario))
}

/**
 * Masking for one run: each scenario as it ends (for its event), then the whole run once at the end,
 * which gives what maskPersonalData gives. The end reuses each scenario's own pass: the values it
 * found join the run's, and its masked texts stand when the run found no other value (the common
 * case: most scenarios hold no personal data, or the same as the rest), so that the end walks again
 * only the scenarios whose texts a value found elsewhere may change. A value found in one scenario is
 * still replaced in the texts of all.
 */
export interface RunMasking {
  scenario<S extends ScenarioResult>(scenario: S): S
  run<T extends RunResult>(result: T): T
}

interface ScenarioPass {
  /** The values the scenario's own pass found, in the order found; undefined: none. */
  readonly found: ReadonlyMap<string, string> | undefined
  /** The scenario masked with those alone. */
  readonly masked: ScenarioResult
}

export function createRunMasking(): RunMasking {
  const passes = new WeakMap<ScenarioResult, ScenarioPass>()
  return {
    scenario: (scenario) => {
      const masker = new Masker()
      const masked = masker.scenarioText(masker.scenario(scenario))
      passes.set(scenario, { found: masker.foundValues(), masked })
      return masked
    },
    run: (result) => {
      const masker = new Masker()
      // First the values found in structured places, in scenario order, then the texts.
      const earlier = result.scenarios.map((scenario) => passes.get(scenario))
      const structured = result.scenarios.map((scenario, index) => {
        const pass = earlier[index]
        if (pass === undefined) return masker.scenario(scenario)
        if (pass.found) masker.adopt(pass.found)
        return undefined
      })
      const masked: RunResult = {
        ...result,
        scenarios: result.scenarios.map((scenario, index) => {
          const pass = earlier[index]
          if (pass === undefined) return masker.scenarioText(structured[index]!)
          if (masker.hasFoundExactly(pass.found)) return pass.masked
          return masker.scenarioText(new Masker().scenario(scenario))
        }),
        diagnostics: result.diagnostics.map((diagnostic) => masker.diagnosticText(diagnostic)),
      }
      return masked as typeof result
    },
  }
}

class Masker {
  private readonly found = new Map<string, string>()
  /** What text() replaces, in order; made again only after a new value is found. */
  private replacements: Replacements | undefined

  /**
   * Texts longest first (a name inside a location still goes), each also in its JSON-escaped form;
   * numbers by their whole text, looked up once per number in a text: a route of thousands of points
   * remembers thousands of coordinates, and scanning every text once per coordinate cost seconds.
   */
  private replacementList(): Replacements {
    if (!this.replacements) {
      const originals = [...this.found.keys()]
        .filter((original) => !WHOLE_NUMBER.test(original))
        .sort((a, b) => b.length - a.length)
      const plain = originals.map((original) => [original, this.found.get(original) ?? ''] as const)
      const escaped = originals
        .map((original) => [JSON.stringify(original).slice(1, -1), this.found.get(original) ?? ''] as const)
        .filter(([form], index) => form !== originals[index])
      const numbers = new Map([...this.found].filter(([original]) => WHOLE_NUMBER.test(original)))
      this.replacements = { texts: [...plain, ...escaped], numbers }
    }
    return this.replacements
  }

  /** What this masker found, in the order found; undefined when nothing. */
  foundValues(): ReadonlyMap<string, string> | undefined {
    return this.found.size === 0 ? undefined : this.found
  }

  /** Takes in what another masker found, as if this one had met the same values in the same order. */
  adopt(found: ReadonlyMap<string, string>): void {
    for (const [original, masked] of found) {
      if (this.found.get(original) !== masked) {
        this.found.set(original, masked)
        this.replacements = undefined
      }
    }
  }

  /** Whether this masker replaces exactly what `found` holds, in the same order: its texts would come out the same. */
  hasFoundExactly(found: ReadonlyMap<string, string> | undefined): boolean {
    if (found === undefined) return this.found.size === 0
    if (found.size !== this.found.size) return false
    const mine = this.found.entries()
    for (const [original, masked] of found) {
      const [myOriginal, myMasked] = mine.next().value as [string, string]
      if (myOriginal !== original || myMasked !== masked) return false
    }
    return true
  }

  scenario<S extends ScenarioResult>(scenario: S): S {
    return withFields<ScenarioResult>(scenario, {
      steps: mapUnlessSame(scenario.steps, (step) => this.step(step)),
      cleanup: mapUnlessSame(scenario.cleanup, (step) => this.step(step)),
      warnings: mapUnlessSame(scenario.warnings, (assertion) => this.assertion(assertion)),
    }) as S
  }

  scenarioText<S extends ScenarioResult>(scenario: S): S {
    const stepText = (step: StepResult): StepResult =>
      withFields(step, {
        assertions: mapUnlessSame(step.assertions, (assertion) => this.assertionText(assertion)),
        ...(step.error ? { error: this.diagnosticText(step.error) } : {}),
        ...(step.curl ? { curl: this.curl(step.curl) } : {}),
        ...(step.request ? { request: this.requestText(step.request) } : {}),
        ...(typeof step.response?.body === 'string'
          ? { response: withFields(step.response, { body: this.text(step.response.body) }) }
          : {}),
      })
    return withFields<ScenarioResult>(scenario, {
      steps: mapUnlessSame(scenario.steps, stepText),
      cleanup: mapUnlessSame(scenario.cleanup, stepText),
      warnings: mapUnlessSame(scenario.warnings, (assertion) => this.assertionText(assertion)),
      ...(scenario.skipReason ? { skipReason: this.text(scenario.skipReason) } : {}),
    }) as S
  }

  diagnosticText(diagnostic: Diagnostic): Diagnostic {
    return withFields(diagnostic, {
      message: this.text(diagnostic.message),
      ...(diagnostic.details ? { details: mapUnlessSame(diagnostic.details, (detail) => this.text(detail)) } : {}),
    })
  }

  private requestText(request: RecordedRequest): RecordedRequest {
    return withFields(request, {
      url: this.text(request.url),
      ...(request.body === undefined ? {} : { body: this.text(request.body) }),
    })
  }

  private step(step: StepResult): StepResult {
    return withFields(step, {
      ...(step.request ? { request: this.request(step.request) } : {}),
      ...(step.response ? { response: this.response(step.response) } : {}),
      assertions: mapUnlessSame(step.assertions, (assertion) => this.assertion(assertion)),
    })
  }

  private request(request: RecordedRequest): RecordedRequest {
    if (request.body === undefined) return request
    try {
      const parsed: unknown = JSON.parse(request.body)
      return withFields(request, { body: JSON.stringify(this.value(parsed, undefined)) })
    } catch {
      return request
    }
  }

  private response(response: RecordedResponse): RecordedResponse {
    if (response.body === undefined) return response
    return withFields(response, { body: this.value(response.body, undefined) })
  }

  /** Expected and actual are masked alike, so that values equal before masking are equal after it. */
  private assertion(assertion: AssertionResult): AssertionResult {
    if (!('actual' in assertion) && !('expected' in assertion)) return assertion
    const key = bodyKeyOf(assertion.target)
    const actual = this.value(assertion.actual, key)
    const expected = this.expected(assertion, key)
    const isHidden =
      !assertion.ok && !isSameValue(assertion.expected, assertion.actual) && isSameValue(expected, actual)
    return withFields(assertion, {
      ...('expected' in assertion ? { expected } : {}),
      ...('actual' in assertion ? { actual } : {}),
      // Without this, a failed check would show two equal values and no difference.
      ...(isHidden ? { message: `${assertion.message} ${DIFFERENCE_MASKED_NOTE}` } : {}),
    })
  }

  private expected(assertion: AssertionResult, key: string | undefined): unknown {
    const { matcher, expected } = assertion
    if (matcher === 'oneOf' && Array.isArray(expected))
      return mapUnlessSame(expected, (candidate) => this.value(candidate, key))
    return VALUE_MATCHERS.has(matcher) ? this.value(expected, key) : expected
  }

  /** Then by value: a value captured from a response may sit in an expected value of any matcher. */
  private assertionText(assertion: AssertionResult): AssertionResult {
    return withFields(assertion, {
      message: this.text(assertion.message),
      ...('expected' in assertion ? { expected: this.deepText(assertion.expected) } : {}),
      ...('actual' in assertion ? { actual: this.deepText(assertion.actual) } : {}),
    })
  }

  /** A masked curl line no longer reproduces the request: it says so on the line above. */
  private curl(line: string): string {
    const masked = this.text(line)
    return masked === line ? line : `${CURL_MASKED_NOTE}\n${masked}`
  }

  private value(value: unknown, key: string | undefined): unknown {
    // User.profile is the relative link `/profile` (§2.1), not a person's page: masked by value it would shred every URL.
    if (typeof value === 'string' && key !== undefined && TEXT_KEYS.has(key) && !value.startsWith('/'))
      return this.remember(value, maskText(value))
    if (typeof value === 'number' && key !== undefined && NUMBER_KEYS.has(key)) {
      return this.remember(value, key === 'altitude' ? maskAltitude(value) : maskCoordinate(value))
    }
    if (Array.isArray(value)) {
      const items = mapUnlessSame<unknown>(value, (item) => this.value(item, undefined))
      if (key !== 'path' || items.length <= PATH_POINTS_KEPT || !value.some(isPathPoint)) return items
      return [
        ...items.slice(0, PATH_POINTS_KEPT),
        `… ${items.length - PATH_POINTS_KEPT} more points hidden (personal data)`,
      ]
    }
    if (isRecord(value)) return mapFieldsUnlessSame(value, (child, name) => this.value(child, name))
    return value
  }

  /** Every string and remembered number inside a value, replaced by value. */
  private deepText(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (typeof value === 'number') {
      const masked = this.found.get(String(value))
      return masked === undefined ? value : Number(masked)
    }
    if (Array.isArray(value)) return mapUnlessSame<unknown>(value, (item) => this.deepText(item))
    if (isRecord(value)) return mapFieldsUnlessSame(value, (child) => this.deepText(child))
    return value
  }

  private remember<V extends string | number>(original: V, masked: V): V {
    const text = String(original)
    const isWorthReplacing = typeof original === 'string' ? text.length >= MIN_REPLACED_LENGTH : /\.\d{2,}/.test(text)
    if (isWorthReplacing && text !== String(masked) && this.found.get(text) !== String(masked)) {
      this.found.set(text, String(masked))
      this.replacements = undefined
    }
    return masked
  }

  /** Replaces every value met in a body or check, longest first so a name inside a location still goes. */
  private text(text: string): string {
    let masked = text
    const { texts, numbers } = this.replacementList()
    for (const [original, replacement] of texts)
      if (masked.includes(original)) masked = masked.split(original).join(replacement)
    if (numbers.size > 0)
      masked = masked.replace(
        NUMBER_TOKEN,
        (number) =>
          numbers.get(number) ??
          (number.startsWith('-') && numbers.has(number.slice(1)) ? `-${numbers.get(number.slice(1))}` : number),
      )
    // Most texts (messages, URLs, curl lines) name no coordinate key and skip the pattern.
    if (!QUOTED_NUMBER_KEYS.some((quoted) => masked.includes(quoted))) return masked
    return masked.replace(NUMBER_IN_TEXT, (_match, prefix: string, key: string, number: string) => {
      const rounded = key === 'altitude' ? maskAltitude(Number(number)) : maskCoordinate(Number(number))
      return `${prefix}${rounded}`
    })
  }
}

/** Check targets come from the scenario files: a run has a few hundred at most, met again on every step. */
const bodyKeys = new Map<string, string | undefined>()

/** The last key of a target in the body (`body.path[0].latitude` → `latitude`); `headers.location` is a URL, not where someone lives. */
function bodyKeyOf(target: string): string | undefined {
  if (bodyKeys.has(target)) return bodyKeys.get(target)
  const last = /^body\b/.test(target) ? parseJsonPath(target).at(-1) : undefined
  const key = typeof last === 'string' ? last : undefined
  bodyKeys.set(target, key)
  return key
}

function isSameValue(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || JSON.stringify(a) === JSON.stringify(b)
}

function isPathPoint(value: unknown): boolean {
  return isRecord(value) && PATH_POINT_PERSONAL_FIELDS.some((field) => field in value)
}

/** `"latitude": 51.50722` inside a curl line or a message. */
const QUOTED_NUMBER_KEYS = PATH_POINT_PERSONAL_FIELDS.map((field) => `"${field}"`)
const NUMBER_IN_TEXT = new RegExp(
  `("(${PATH_POINT_PERSONAL_FIELDS.join('|')})"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)`,
  'g',
)

/*
 * Copy on write: most of a report holds no personal data, and copying every body and value of it
 * twice (the scenario as it ends, the whole run at the end) was most of what masking cost. A list or
 * object whose children all come back unchanged is returned itself; the output serialises the same.
 */
function mapUnlessSame<T>(list: readonly T[], map: (item: T) => T): T[] {
  let copy: T[] | undefined
  for (let index = 0; index < list.length; index++) {
    const item = list[index] as T
    const mapped = map(item)
    if (copy === undefined && !Object.is(mapped, item)) copy = list.slice(0, index)
    copy?.push(mapped)
  }
  return copy ?? (list as T[])
}

/** `{ ...record, ...fields }`, or the record itself when every field is the value it already holds (fields never add a key). */
function withFields<T extends object>(record: T, fields: Partial<T>): T {
  for (const key of Object.keys(fields) as (keyof T)[]) {
    if (!Object.is(fields[key], record[key])) return { ...record, ...fields }
  }
  return record
}

function mapFieldsUnlessSame(
  record: Record<string, unknown>,
  map: (child: unknown, name: string) => unknown,
): Record<string, unknown> {
  const names = Object.keys(record)
  let mapped: unknown[] | undefined
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string
    const child = record[name]
    const next = map(child, name)
    if (mapped === undefined && !Object.is(next, child))
      mapped = names.slice(0, index).map((earlier) => record[earlier])
    mapped?.push(next)
  }
  return mapped === undefined ? record : Object.fromEntries(names.map((name, index) => [name, mapped[index]]))
}
