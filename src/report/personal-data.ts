import type { Diagnostic } from '../model/diagnostic.js'
import type { AssertionResult, RecordedRequest, RecordedResponse, RunResult, ScenarioResult, StepResult } from '../model/result.js'
import { isPlainObject } from './values.js'

/*
 * Personal data in report files (issue 6): a profile's `name` and `location` keep their first
 * character, GPS coordinates are rounded to 0.1° (about 11 km) and a `path` keeps its first points.
 * Values are masked where they sit in bodies and in the actual values of checks, then by value
 * everywhere else (messages, curl lines, expected values captured from a response), the way the
 * runner redacts tokens. `--show-personal-data` skips all this.
 */

const TEXT_KEYS = new Set(['name', 'location'])
const COORDINATE_KEYS = new Set(['latitude', 'longitude'])
const PATH_POINTS_KEPT = 3
/** Shorter values are too common to replace by value in free text. */
const MIN_REPLACED_LENGTH = 3

export function maskText(text: string): string {
  return text.length <= 1 ? '[masked]' : `${text.slice(0, 1)}… [masked]`
}

export function maskCoordinate(value: number): number {
  return Math.round(value * 10) / 10
}

/** A copy of the result with names, locations and GPS paths masked; the input is not changed. */
export function maskPersonalData<T extends RunResult>(result: T): T {
  const masker = new Masker()
  // First pass collects the values found in structured places; the second replaces them in text.
  const scenarios = result.scenarios.map((scenario) => masker.scenario(scenario))
  const masked: RunResult = {
    ...result,
    scenarios: scenarios.map((scenario) => masker.scenarioText(scenario)),
    diagnostics: result.diagnostics.map((diagnostic) => masker.diagnosticText(diagnostic)),
  }
  return masked as T
}

class Masker {
  private readonly found = new Map<string, string>()

  scenario<S extends ScenarioResult>(scenario: S): S {
    return {
      ...scenario,
      steps: scenario.steps.map((step) => this.step(step)),
      cleanup: scenario.cleanup.map((step) => this.step(step)),
      warnings: scenario.warnings.map((assertion) => this.assertion(assertion)),
    }
  }

  scenarioText<S extends ScenarioResult>(scenario: S): S {
    const stepText = (step: StepResult): StepResult => ({
      ...step,
      assertions: step.assertions.map((assertion) => this.assertionText(assertion)),
      ...(step.error ? { error: this.diagnosticText(step.error) } : {}),
      ...(step.curl ? { curl: this.text(step.curl) } : {}),
      ...(step.request ? { request: this.requestText(step.request) } : {}),
      ...(typeof step.response?.body === 'string' ? { response: { ...step.response, body: this.text(step.response.body) } } : {}),
    })
    return {
      ...scenario,
      steps: scenario.steps.map(stepText),
      cleanup: scenario.cleanup.map(stepText),
      warnings: scenario.warnings.map((assertion) => this.assertionText(assertion)),
      ...(scenario.skipReason ? { skipReason: this.text(scenario.skipReason) } : {}),
    }
  }

  diagnosticText(diagnostic: Diagnostic): Diagnostic {
    return {
      ...diagnostic,
      message: this.text(diagnostic.message),
      ...(diagnostic.details ? { details: diagnostic.details.map((detail) => this.text(detail)) } : {}),
    }
  }

  private requestText(request: RecordedRequest): RecordedRequest {
    return {
      ...request,
      url: this.text(request.url),
      ...(request.body === undefined ? {} : { body: this.text(request.body) }),
    }
  }

  private step(step: StepResult): StepResult {
    return {
      ...step,
      ...(step.request ? { request: this.request(step.request) } : {}),
      ...(step.response ? { response: this.response(step.response) } : {}),
      assertions: step.assertions.map((assertion) => this.assertion(assertion)),
    }
  }

  private request(request: RecordedRequest): RecordedRequest {
    if (request.body === undefined) return request
    try {
      const parsed: unknown = JSON.parse(request.body)
      return { ...request, body: JSON.stringify(this.value(parsed, undefined)) }
    } catch {
      return request
    }
  }

  private response(response: RecordedResponse): RecordedResponse {
    if (response.body === undefined) return response
    return { ...response, body: this.value(response.body, undefined) }
  }

  private assertion(assertion: AssertionResult): AssertionResult {
    // Only values out of the body: `headers.location` is a URL, not where someone lives.
    const key = /^body\b/.test(assertion.target) ? assertion.target.split(/[.[\]]/).filter(Boolean).at(-1) : undefined
    return {
      ...assertion,
      ...('actual' in assertion ? { actual: this.value(assertion.actual, key) } : {}),
    }
  }

  /** Expected values come from the suite; only those copied from a response (captures) are masked. */
  private assertionText(assertion: AssertionResult): AssertionResult {
    return {
      ...assertion,
      message: this.text(assertion.message),
      ...(typeof assertion.expected === 'string' ? { expected: this.text(assertion.expected) } : {}),
    }
  }

  private value(value: unknown, key: string | undefined): unknown {
    if (typeof value === 'string' && key !== undefined && TEXT_KEYS.has(key)) return this.remember(value, maskText(value))
    if (typeof value === 'number' && key !== undefined && COORDINATE_KEYS.has(key)) {
      return this.remember(value, maskCoordinate(value))
    }
    if (Array.isArray(value)) {
      const items = value.map((item) => this.value(item, undefined))
      if (key !== 'path' || items.length <= PATH_POINTS_KEPT || !value.some(isPathPoint)) return items
      return [...items.slice(0, PATH_POINTS_KEPT), `… ${items.length - PATH_POINTS_KEPT} more points hidden (personal data)`]
    }
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, this.value(child, name)]))
    }
    return value
  }

  private remember<V extends string | number>(original: V, masked: V): V {
    const text = String(original)
    const isWorthReplacing = typeof original === 'string' ? text.length >= MIN_REPLACED_LENGTH : /\.\d{2,}/.test(text)
    if (isWorthReplacing && text !== String(masked)) this.found.set(text, String(masked))
    return masked
  }

  /** Replaces every value met in a body or check, longest first so a name inside a location still goes. */
  private text(text: string): string {
    let masked = text
    const originals = [...this.found.keys()].sort((a, b) => b.length - a.length)
    for (const original of originals) masked = masked.split(original).join(this.found.get(original) ?? '')
    for (const original of originals) {
      const escaped = JSON.stringify(original).slice(1, -1)
      if (escaped !== original) masked = masked.split(escaped).join(this.found.get(original) ?? '')
    }
    return masked.replace(COORDINATE_IN_TEXT, (_match, prefix: string, number: string) => `${prefix}${maskCoordinate(Number(number))}`)
  }
}

function isPathPoint(value: unknown): boolean {
  return isPlainObject(value) && ('latitude' in value || 'longitude' in value)
}

/** `"latitude": 51.50722` inside a curl line or a message. */
const COORDINATE_IN_TEXT = /("(?:latitude|longitude)"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g
