import type {
  AssertionResult,
  RecordedRequest,
  RecordedResponse,
  ScenarioResult,
  StepResult,
} from '../../model/result.js'
import { formatAssertion, formatDiagnostic, type FormatOptions } from './format-diagnostic.js'
import { createStyler } from './text-style.js'
import { prettyBody } from './values.js'

/*
 * Failure evidence, the same text in every reporter: the failed checks (rule, expected, actual), the
 * step's transport error, the request/response transcript and a curl line that reproduces the step.
 * Tokens were replaced by the runner before any of this is seen.
 */

export interface FailedStep {
  readonly step: StepResult
  /** 1-based position among the steps, or among the cleanup steps when `cleanup` is true. */
  readonly position: number
  readonly cleanup: boolean
}

export function isFailedStep(step: StepResult): boolean {
  return step.status === 'failed' || step.status === 'error'
}

export function failedSteps(scenario: ScenarioResult): FailedStep[] {
  const steps = scenario.steps.map((step, index) => ({ step, position: index + 1, cleanup: false }))
  const cleanup = scenario.cleanup.map((step, index) => ({ step, position: index + 1, cleanup: true }))
  return [...steps, ...cleanup].filter(({ step }) => isFailedStep(step))
}

export function failedAssertions(step: StepResult): AssertionResult[] {
  return step.assertions.filter((assertion) => !assertion.ok && assertion.severity === 'failure')
}

/** `step 2 "read a page of 4" failed` / `cleanup step 1 "delete the activity" errored`. */
export function describeFailedStep({ step, position, cleanup }: FailedStep): string {
  const verb = step.status === 'error' ? 'could not be judged' : 'failed'
  return `${cleanup ? 'cleanup step' : 'step'} ${position} "${step.name}" ${verb}`
}

/** Every failed step of a scenario with its evidence, separated by blank lines. */
export function formatScenarioEvidence(scenario: ScenarioResult, options: FormatOptions): string {
  return failedSteps(scenario)
    .map(
      (failed) =>
        `${describeFailedStep(failed)}\n${formatStepEvidence(failed.step, { ...options, scenarioRules: scenario.rules })}`,
    )
    .join('\n\n')
}

export interface EvidenceOptions extends FormatOptions {
  readonly scenarioRules?: readonly string[]
  /** False leaves out the request/response transcript and the curl line (the HTML page shows them apart). */
  readonly transcript?: boolean
}

export function formatStepEvidence(step: StepResult, options: EvidenceOptions): string {
  const assertionOptions = { ...options, fallbackRules: options.scenarioRules ?? [], responseBody: step.response?.body }
  const blocks = failedAssertions(step).map((assertion) => formatAssertion(assertion, assertionOptions))
  if (step.error) blocks.push(formatDiagnostic(step.error, options))
  if (step.clockResends)
    blocks.push(
      `resent ${step.clockResends} time${step.clockResends === 1 ? '' : 's'} until the server's Date was later than the step's date (untilServerDateAfter); the last answer is shown`,
    )
  if (step.attempts > 1) blocks.push(`sent ${step.attempts} times (eventually); the last attempt is shown`)
  if (step.pages !== undefined && step.pages > 1)
    blocks.push(`walked ${step.pages} pages; the first failing page is shown`)
  if (options.transcript === false) return blocks.join('\n')
  const transcript = formatTranscript(step, options)
  if (transcript) blocks.push(transcript)
  if (step.curl) blocks.push(formatCurl(step.curl, options))
  return blocks.join('\n')
}

function formatCurl(curl: string, options: FormatOptions): string {
  const style = createStyler(options.colors)
  return `${style.bold('reproduce')} (tokens come from $FITCONFORM_* variables):\n${indent(curl)}`
}

/** The request and response of a step as text, bodies pretty-printed and cut past a size. */
function formatTranscript(step: StepResult, options: FormatOptions): string {
  const style = createStyler(options.colors)
  const parts: string[] = []
  if (step.request) parts.push(`${style.bold('request')}:\n${indent(requestText(step.request))}`)
  if (step.response) parts.push(`${style.bold('response')}:\n${indent(responseText(step.response))}`)
  return parts.join('\n')
}

export function requestText(request: RecordedRequest): string {
  const lines = [`${request.method} ${request.url}`, ...headerLines(request.headers)]
  if (request.body !== undefined && request.body !== '') lines.push('', prettyBody(request.body).text)
  return lines.join('\n')
}

export function responseText(response: RecordedResponse): string {
  const size = `${response.bodyBytes} bytes${response.truncated ? ', truncated when recorded' : ''}`
  const lines = [`HTTP ${response.status} (${size})`, ...headerLines(response.headers)]
  if (response.resent) lines.unshift(`(${response.resent})`)
  if (response.body !== undefined && response.body !== '') lines.push('', prettyBody(response.body).text)
  return lines.join('\n')
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : prefix + line))
    .join('\n')
}

/** Lines of a response body shown in a rule's example (the full body is in --verbose and the HTML report). */
const EXAMPLE_BODY_LINES = 12

export interface ExampleOptions extends FormatOptions {
  /** The block is cut to this many lines, saying where the rest is. */
  readonly maxLines: number
}

/**
 * One broken rule's example, short enough for the first screen: the rule's failed checks in that
 * step, the request line, the response head with the start of its body, and the curl line.
 */
export function formatRuleExample(
  example: {
    readonly scenario: ScenarioResult
    readonly step: StepResult
    readonly position: number
    readonly cleanup: boolean
    readonly assertions: readonly AssertionResult[]
  },
  options: ExampleOptions,
): string {
  const { step } = example
  const style = createStyler(options.colors)
  const assertionOptions = { ...options, fallbackRules: example.scenario.rules, responseBody: step.response?.body }
  const lines: string[] = [
    `${style.dim('example:')} ${example.scenario.id}, ${describeFailedStep({ step, position: example.position, cleanup: example.cleanup })}`,
  ]
  lines.push(
    ...example.assertions
      .slice(0, 2)
      .map((assertion) => formatAssertion(assertion, { ...assertionOptions, rules: undefined })),
  )
  const others = failedAssertions(step).length - Math.min(example.assertions.length, 2)
  if (others > 0) lines.push(style.dim(`(${others} more failed check${others === 1 ? '' : 's'} in this step)`))
  if (step.request) lines.push(`${style.bold('request')}: ${step.request.method} ${step.request.url}`)
  if (step.response) {
    const body =
      step.response.body === undefined || step.response.body === ''
        ? undefined
        : prettyBody(step.response.body, { maxChars: 1500, maxLines: EXAMPLE_BODY_LINES }).text
    lines.push(
      `${style.bold('response')}: HTTP ${step.response.status}, ${step.response.headers['content-type'] ?? 'no Content-Type'}, ${step.response.bodyBytes} bytes`,
    )
    if (body) lines.push(indent(body))
  }
  if (step.curl) lines.push(formatCurl(step.curl, options))
  return capLines(lines.join('\n'), options.maxLines)
}

function capLines(text: string, maxLines: number): string {
  const lines = text.split('\n')
  if (lines.length <= maxLines) return text
  return [
    ...lines.slice(0, maxLines - 1),
    `… ${lines.length - maxLines + 1} more lines: run with --verbose, or open report.html`,
  ].join('\n')
}
